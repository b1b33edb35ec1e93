"""Monster («هیولا», the Persian first edition of Campy Creatures): see ``engine.py``."""
