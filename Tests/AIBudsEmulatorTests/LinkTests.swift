@testable import AIBudsEmulator
import Foundation
import Testing

@Suite struct LinkTests {
    @Test func aDatagramIsDeliveredAtTheEndOfItsInterval() {
        var shaper = BLELinkShaper()
        #expect(shaper.deliveryTime(forDatagramOf: 976, at: .zero) == .milliseconds(15))
        #expect(shaper.deliveryTime(forDatagramOf: 20, at: .microseconds(14_999)) == .milliseconds(15))
        #expect(shaper.deliveryTime(forDatagramOf: 20, at: .milliseconds(15)) == .milliseconds(30))
        // Idle intervals carry no budget forward.
        #expect(shaper.deliveryTime(forDatagramOf: 976, at: .milliseconds(100)) == .milliseconds(105))
    }

    @Test func stopAndWaitCrawlsAndPipeliningApproachesTheLinkRate() {
        // Stop and wait: each request and each response waits for the end of an interval.
        var up = BLELinkShaper()
        var down = BLELinkShaper()
        var now = Duration.zero
        for _ in 0..<100 {
            let delivered = up.deliveryTime(forDatagramOf: 40, at: now)
            now = down.deliveryTime(forDatagramOf: 976, at: delivered)
        }
        let stopAndWaitRate = Double(100 * 976) / now.seconds
        #expect(now >= .milliseconds(100 * 15))
        #expect(stopAndWaitRate < 35_000)

        // Pipelined: the link is never idle; 976-byte packets take 4 link packets each.
        var pipe = BLELinkShaper()
        var last = Duration.zero
        for _ in 0..<1100 { last = pipe.deliveryTime(forDatagramOf: 976, at: .zero) }
        #expect(last == .milliseconds(400 * 15))
        let payloadRate = Double(1100 * 976) / last.seconds
        #expect(abs(payloadRate - pipe.maxBytesPerSecond) < 0.01 * pipe.maxBytesPerSecond)
        #expect(Int(pipe.maxBytesPerSecond) == 178_933)
    }

    @Test func faultSpecsParse() throws {
        let faults = try FaultConfiguration.parse(["lose=0.1,duplicate=0.2", "reorder=0.3, delay=40:0.5 ,seed=9",
                                                   "slow-hotspot=1500,error=0.05", "http-drop=4096,http-stall=100:250",
                                                   "http-delay=7,http-fail=2"])
        #expect(faults.lose == 0.1 && faults.duplicate == 0.2 && faults.reorder == 0.3)
        #expect(faults.delay == .milliseconds(40) && faults.delayProbability == 0.5 && faults.seed == 9)
        #expect(faults.slowHotspot == .milliseconds(1500) && faults.error == 0.05)
        #expect(faults.http == DataPlaneFaults(closeAtByte: 4096, stall: .init(atByte: 100, duration: .milliseconds(250)),
                                               firstByteDelay: .milliseconds(7), failNextRequests: 2))
        #expect(try FaultConfiguration.parse(["delay=10"]).delayProbability == 1)
        #expect(try FaultConfiguration.parse([]) == FaultConfiguration())
        // `refuse` accumulates across items and specs.
        #expect(try FaultConfiguration.parse(["refuse=65/1:5,refuse=66/4:7", "refuse=64/13:8"]).refusals == [
            .init(group: 65, command: 1, code: .busy), .init(group: 66, command: 4, code: .badState),
            .init(group: 64, command: 13, code: .noSpace),
        ])
        for bad in ["lose", "lose=2", "lose=-0.1", "lose=x", "jitter=3", "delay=1:2", "http-stall=5", "seed=-1",
                    "slow-hotspot=9999999999", "http-fail=-1",
                    "refuse=8/0:5", "refuse=65/1:0", "refuse=65/1:9", "refuse=65:5", "refuse=65/256:5", "refuse=65/1", "refuse=/:"] {
            let error = try #require(throws: EmulatorError.self) { try FaultConfiguration.parse([bad]) }
            #expect(error.code == .invalidConfiguration)
        }
    }

    @Test func datagramFaultsAreSeededAndRoughlyAsLikelyAsAsked() throws {
        let configuration = try FaultConfiguration.parse(["lose=0.25,duplicate=0.1,seed=42"])
        var first = DatagramFaults(configuration)
        var second = DatagramFaults(configuration)
        let plans = (0..<10_000).map { _ in first.plan() }
        #expect(plans == (0..<10_000).map { _ in second.plan() })
        let lost = plans.filter(\.isEmpty).count
        let doubled = plans.filter { $0.count == 2 }.count
        #expect((2200...2800).contains(lost))
        #expect((550...950).contains(doubled))
    }

    @Test func configurationChecksItsOptions() throws {
        let configuration = try EmulatorConfiguration(
            profile: "watch", listen: "127.0.0.9:0", name: "Wrist", media: nil, manifest: nil, state: "/tmp/x",
            link: "ble", faults: ["lose=0.1"], recordEvery: "2.5", hotspotOpen: false, token: nil)
        #expect(configuration.profile == .watch && configuration.listen.description == "127.0.0.9:0")
        #expect(configuration.link == .ble && configuration.link.mtu == 976 && configuration.recordEvery == .milliseconds(2500))
        let bad: [() throws -> EmulatorConfiguration] = [
            { try EmulatorConfiguration(profile: "toaster", listen: nil, name: nil, media: nil, manifest: nil, state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: "localhost:1337", name: nil, media: nil, manifest: nil, state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: nil, name: nil, media: "a", manifest: "b", state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: nil, name: nil, media: nil, manifest: nil, state: nil, link: "5g", faults: [], recordEvery: nil, hotspotOpen: false, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: nil, name: nil, media: nil, manifest: nil, state: nil, link: nil, faults: ["x=1"], recordEvery: nil, hotspotOpen: false, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: nil, name: nil, media: nil, manifest: nil, state: nil, link: nil, faults: [], recordEvery: "0", hotspotOpen: false, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: nil, name: nil, media: nil, manifest: nil, state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: "t") },
            { try EmulatorConfiguration(profile: "earbuds", listen: nil, name: nil, media: nil, manifest: nil, state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: true, token: nil) },
            { try EmulatorConfiguration(profile: nil, listen: nil, name: "", media: nil, manifest: nil, state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: nil) },
        ]
        for make in bad {
            let error = try #require(throws: EmulatorError.self) { try make() }
            #expect(error.code == .invalidConfiguration)
        }
    }
}
