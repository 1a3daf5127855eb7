// Module AIBudsSMP: see docs/architecture.md.
