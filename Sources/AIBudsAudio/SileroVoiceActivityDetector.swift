import AIBudsPCM
import AIBudsONNX
import Foundation

/// Silero VAD (a small recurrent network, the `silero-vad` package's ONNX model) run by ONNX
/// Runtime's C API, loaded at run time from the shared library that onnxruntime's Python wheel
/// ships (`scripts/vad-venv.sh` installs both). It decides 32 ms windows (512 samples at 16 kHz):
/// the detector the measurement in docs/benchmarks.md picked, since it keeps its precision in
/// noise where WebRTC's does not. One owner at a time (not thread-safe).
public final class SileroVoiceActivityDetector {
    /// Samples per decision at 16 kHz (32 ms).
    public static let windowSamples = 512
    private static let contextSamples = 64

    /// The probability from which a window counts as speech.
    public let threshold: Float
    private let session: ONNXSession
    private var state = [Float](repeating: 0, count: 2 * 128)
    private var context = [Float](repeating: 0, count: 64)

    /// The model: `silero_vad/data/silero_vad.onnx` in the venv `scripts/vad-venv.sh` makes
    /// (`$AIBUDS_VAD_VENV`, else the newest under ~/.cache/aibuds), beside the ONNX Runtime that
    /// runs it.
    public static func locate() throws -> URL {
        for site in ONNXRuntime.sitePackages() {
            let model = site.appendingPathComponent("silero_vad/data/silero_vad.onnx")
            if FileManager.default.fileExists(atPath: model.path) { return model }
        }
        throw AudioError.engineUnavailable("Silero VAD: no model found (run scripts/vad-venv.sh)")
    }

    /// Loads the model (``locate()``'s by default) into an ONNX Runtime session.
    public init(model: URL? = nil, threshold: Float = 0.5) throws {
        let modelBytes: Data
        do { modelBytes = try Data(contentsOf: try model ?? Self.locate()) } catch let error as AudioError { throw error } catch {
            throw AudioError.engineUnavailable("Silero VAD: cannot read the model: \(error.localizedDescription)")
        }
        do { session = try ONNXSession(modelBytes: modelBytes) } catch {
            throw AudioError.engineUnavailable("Silero VAD: \(error)")
        }
        self.threshold = threshold
    }

    /// Forgets the stream so far (the network's state and context), for a new recording.
    public func reset() {
        state = [Float](repeating: 0, count: 2 * 128)
        context = [Float](repeating: 0, count: Self.contextSamples)
    }

    /// The speech probability of the next 512 samples (16 kHz mono) of the stream.
    public func probability(_ window: ArraySlice<Int16>) throws -> Float {
        guard window.count == Self.windowSamples else {
            throw AudioError.invalidFormat("Silero VAD takes 512 samples at 16 kHz, not \(window.count)")
        }
        let input = context + window.map { Float($0) / 32_768 }
        let outputs: [ONNXTensor]
        do {
            outputs = try session.run([
                ("input", ONNXTensor(input, shape: [1, Int64(input.count)])),
                ("state", ONNXTensor(state, shape: [2, 1, 128])),
                ("sr", ONNXTensor([Int64(16_000)], shape: [])),
            ], outputs: ["output", "stateN"])
        } catch {
            throw AudioError.engineUnavailable("Silero VAD: \(error)")
        }
        guard let output = outputs[0].floats?.first, let nextState = outputs[1].floats, nextState.count == 2 * 128 else {
            throw AudioError.engineUnavailable("Silero VAD: the model answered in an unexpected shape")
        }
        state = nextState
        context = Array(input.suffix(Self.contextSamples))
        return output
    }

    /// Whether the next 512 samples hold speech (probability ≥ ``threshold``).
    public func isSpeech(_ window: ArraySlice<Int16>) throws -> Bool {
        try probability(window) >= threshold
    }
}
