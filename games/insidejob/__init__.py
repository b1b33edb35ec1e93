"""Inside Job (KOSMOS 2022), "سایه سرخ": a hidden-role trick-taking game (spec: rules/inside-job.md)."""
