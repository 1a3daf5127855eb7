// Module AIBudsNet: see docs/architecture.md.
