/// A camera's calibration, as Gyroflow's lens profiles give it, at its calibration size.
public struct LensProfile: Sendable, Equatable {
    /// The width the calibration was made at, in pixels.
    public var calibrationWidth: Int
    /// The height the calibration was made at, in pixels.
    public var calibrationHeight: Int
    /// Focal lengths in pixels (x, y).
    public var focalLength: SIMD2<Double>
    /// The principal point in pixels.
    public var principalPoint: SIMD2<Double>
    /// The distortion model.
    public var model: LensDistortionModel
    /// The distortion coefficients, in the model's order.
    public var coefficients: [Double]
    /// The rolling-shutter readout time in seconds, if the profile gives one.
    public var frameReadoutTime: Double?
    /// The readout direction, if the profile gives one.
    public var readoutDirection: ReadoutDirection?
    /// The camera's name, for logs.
    public var name: String

    /// A calibration given in code rather than read from Gyroflow's JSON; pixel values refer to
    /// the calibration size, and readout time is in seconds.
    public init(
        calibrationWidth: Int, calibrationHeight: Int, focalLength: SIMD2<Double>, principalPoint: SIMD2<Double>,
        model: LensDistortionModel, coefficients: [Double], frameReadoutTime: Double? = nil,
        readoutDirection: ReadoutDirection? = nil, name: String = ""
    ) {
        self.calibrationWidth = calibrationWidth
        self.calibrationHeight = calibrationHeight
        self.focalLength = focalLength
        self.principalPoint = principalPoint
        self.model = model
        self.coefficients = coefficients
        self.frameReadoutTime = frameReadoutTime
        self.readoutDirection = readoutDirection
        self.name = name
    }

    /// The lens at a video's resolution: focal lengths and principal point scaled by the ratio of
    /// the sizes (each axis on its own).
    public func lens(width: Int, height: Int) -> LensModel {
        let scale = SIMD2(Double(width) / Double(calibrationWidth), Double(height) / Double(calibrationHeight))
        return LensModel(
            model: model, focalLength: focalLength * scale, principalPoint: principalPoint * scale, coefficients: coefficients)
    }

    /// The lens of the emulated AIBuds glasses camera (a wide fisheye, calibrated at 1920×1080,
    /// 20 ms top-to-bottom readout): the profile the emulator serves and the plugin's default.
    public static let aibudsGlasses = LensProfile(
        calibrationWidth: 1920, calibrationHeight: 1080, focalLength: SIMD2(1100, 1100), principalPoint: SIMD2(960, 540),
        model: .opencvFisheye, coefficients: [0.05, -0.01, 0.002, 0], frameReadoutTime: 0.020,
        readoutDirection: .topToBottom, name: "AIBuds glasses")
}
