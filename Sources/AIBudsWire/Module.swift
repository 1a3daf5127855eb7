// Module AIBudsWire: see docs/architecture.md.
