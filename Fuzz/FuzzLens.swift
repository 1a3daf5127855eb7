// libFuzzer target `lens`: the lens-profile parser (`LensProfileParser.parse`, Gyroflow's
// lens-profile JSON, which a device or a user's file supplies).
//
// Built by scripts/fuzz.sh from Sources/AIBudsStabilization/IMU and Lens. Invariants: no crash,
// hang or huge allocation; an accepted profile has a positive calibration size, positive finite
// focal lengths, a principal point inside the image, finite coefficients and a finite,
// non-negative readout time when it gives one.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLens(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = Data(UnsafeRawBufferPointer(start: start, count: count))
    guard let profile = try? LensProfileParser.parse(input) else { return 0 }
    precondition(profile.calibrationWidth > 0 && profile.calibrationHeight > 0, "an empty calibration size")
    precondition(profile.focalLength.x > 0 && profile.focalLength.y > 0, "a focal length not positive")
    precondition(profile.focalLength.x.isFinite && profile.focalLength.y.isFinite, "a focal length not finite")
    precondition(profile.principalPoint.x > 0 && profile.principalPoint.x < Double(profile.calibrationWidth)
        && profile.principalPoint.y > 0 && profile.principalPoint.y < Double(profile.calibrationHeight),
        "the principal point is outside the image")
    precondition(profile.coefficients.allSatisfy(\.isFinite), "a coefficient is not finite")
    if let readout = profile.frameReadoutTime { precondition(readout.isFinite && readout >= 0, "a bad readout time") }
    return 0
}
