// The data plane tests are DataPlane*Tests.swift.
