"""Night of the Mummy: hidden-identity deduction for 4–8 players (spec shared/rules/night-of-the-mummy.md)."""
