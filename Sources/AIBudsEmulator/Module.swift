// Module AIBudsEmulator: see docs/architecture.md.
