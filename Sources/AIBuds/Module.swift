// Module AIBuds: see docs/architecture.md.
