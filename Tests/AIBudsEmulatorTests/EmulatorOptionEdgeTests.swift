import AIBudsEmulator
import Testing

/// Option values at their edges are refused with an error, never a trap (docs/reliability.md,
/// "One datagram kills the emulator": the audit).
@Suite("Emulator option edges")
struct EmulatorOptionEdgeTests {
    @Test(arguments: ["delay=", "delay=:", "http-stall=", "http-stall=:", "http-trickle=", "http-trickle=5:0", "http-trickle=5:x", "slow-hotspot=99999999999999999999", "seed=-1"])
    func malformedFaultsAreRefused(_ spec: String) {
        #expect(throws: EmulatorError.self) { try FaultConfiguration.parse([spec]) }
    }

    @Test func aTrickleIsParsed() throws {
        let faults = try FaultConfiguration.parse(["http-trickle=1024:10"])
        #expect(faults.http.trickle == DataPlaneFaults.Trickle(atByte: 1024, bytesPerSecond: 10))
    }
}
