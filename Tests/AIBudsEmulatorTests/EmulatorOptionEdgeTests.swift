import AIBudsEmulator
import Testing

/// Option values at their edges are refused with an error, never a trap (docs/reliability.md,
/// "One datagram kills the emulator": the audit).
@Suite("Emulator option edges")
struct EmulatorOptionEdgeTests {
    @Test(arguments: ["delay=", "delay=:", "http-stall=", "http-stall=:", "slow-hotspot=99999999999999999999", "seed=-1"])
    func malformedFaultsAreRefused(_ spec: String) {
        #expect(throws: EmulatorError.self) { try FaultConfiguration.parse([spec]) }
    }
}
