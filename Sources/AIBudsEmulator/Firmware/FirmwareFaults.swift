/// The firmware-update faults an emulator injects (`--fault ota-drop=…,ota-corrupt=…,power-loss=swap`).
public struct FirmwareFaults: Sendable, Equatable {
    /// Upload offsets at which the device goes silent for ``dropDuration`` (a dropped link): the
    /// first chunk that reaches each is stored, then nothing is answered for a while.
    public var dropAtOffsets: [Int] = []
    /// How long each drop lasts.
    public var dropDuration = Duration.milliseconds(2500)
    /// The upload offset of one byte that arrives flipped (a chunk corrupted unnoticed by the link).
    public var corruptAtOffset: Int?
    /// Whether the power fails during the swap of the next reset with a pending image.
    public var powerLossDuringSwap = false
    /// Whether a test image crashes when it boots, so that the bootloader reverts at once.
    public var testImageFailsToBoot = false

    /// Creates a configuration with every firmware fault off.
    public init() {}
}
