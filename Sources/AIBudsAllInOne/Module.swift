// Module AIBudsAllInOne: see docs/architecture.md.
