// Module AIBudsFoundation: see docs/architecture.md.
