// Module TopStepComKit: see docs/architecture.md.
