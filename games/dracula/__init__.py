"""Dracula vs Van Helsing: a two-player duel of card holders facing five districts."""
