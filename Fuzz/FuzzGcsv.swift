// libFuzzer target `gcsv`: the six-axis log parser (`GyroLogParser.parse`, the `.gcsv` sidecar a
// device serves beside each video, in Gyroflow's format).
//
// Built by scripts/fuzz.sh from Sources/AIBudsStabilization/IMU. Invariants: no crash, hang or
// huge allocation; an accepted log has at least two samples, times finite and strictly
// increasing, and every rate (and acceleration) finite, so the orientation filter never sees
// an infinity or a NaN.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGcsv(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard let log = try? GyroLogParser.parse(input) else { return 0 }
    precondition(log.samples.count >= 2, "an accepted log with \(log.samples.count) samples")
    var previous = -Double.infinity
    for sample in log.samples {
        precondition(sample.time.isFinite && sample.time > previous, "times not finite and increasing")
        previous = sample.time
        for axis in 0..<3 {
            precondition(sample.gyro[axis].isFinite, "a rate is not finite")
            if let accel = sample.accel { precondition(accel[axis].isFinite, "an acceleration is not finite") }
        }
    }
    return 0
}
