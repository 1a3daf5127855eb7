// Module AIBudsSMPClient: see docs/architecture.md.
