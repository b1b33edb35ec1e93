"""Pure rules engines: one package per game, no Django import anywhere below here."""
