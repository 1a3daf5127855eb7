// Module AIBudsSMPAudio: see docs/architecture.md ("The AI audio path").
