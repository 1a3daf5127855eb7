// Module AIBudsPCM: see docs/architecture.md ("The AI audio path").
