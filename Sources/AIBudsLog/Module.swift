// Module AIBudsLog: see docs/architecture.md.
