// Module AIBudsTestKit: see docs/architecture.md.
