import AIBudsPCM
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
    private let api: OrtFunctions
    private let env: OpaquePointer
    private let session: OpaquePointer
    private let memory: OpaquePointer
    private var state = [Float](repeating: 0, count: 2 * 128)
    private var context = [Float](repeating: 0, count: 64)

    /// Where the model and the runtime are: `$AIBUDS_VAD_VENV`, else the newest venv of
    /// `scripts/vad-venv.sh` under ~/.cache/aibuds.
    public static func locate() throws -> (model: URL, runtime: URL) {
        let fm = FileManager.default
        var venvs: [URL] = []
        if let env = ProcessInfo.processInfo.environment["AIBUDS_VAD_VENV"], !env.isEmpty {
            venvs.append(URL(fileURLWithPath: env))
        }
        let cache = fm.homeDirectoryForCurrentUser.appendingPathComponent(".cache/aibuds")
        let names = ((try? fm.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasPrefix("vad-venv-") }.sorted()
        venvs += names.reversed().map { cache.appendingPathComponent($0) }
        for venv in venvs {
            let lib = venv.appendingPathComponent("lib")
            for python in ((try? fm.contentsOfDirectory(atPath: lib.path)) ?? []).filter({ $0.hasPrefix("python") }) {
                let site = lib.appendingPathComponent(python).appendingPathComponent("site-packages")
                let model = site.appendingPathComponent("silero_vad/data/silero_vad.onnx")
                let capi = site.appendingPathComponent("onnxruntime/capi")
                let runtime = ((try? fm.contentsOfDirectory(atPath: capi.path)) ?? [])
                    .filter { $0.hasPrefix("libonnxruntime.so") }.sorted().last.map { capi.appendingPathComponent($0) }
                if fm.fileExists(atPath: model.path), let runtime { return (model, runtime) }
            }
        }
        throw AudioError.engineUnavailable("Silero VAD: no model and ONNX Runtime found (run scripts/vad-venv.sh)")
    }

    /// Loads the model into an ONNX Runtime session (paths from ``locate()`` by default).
    public init(model: URL? = nil, runtime: URL? = nil, threshold: Float = 0.5) throws {
        let found = (model != nil && runtime != nil) ? (model!, runtime!) : try Self.locate()
        let modelBytes: Data
        do { modelBytes = try Data(contentsOf: model ?? found.0) } catch {
            throw AudioError.engineUnavailable("Silero VAD: cannot read the model: \(error.localizedDescription)")
        }
        let api = try OrtFunctions(library: runtime ?? found.1)
        self.api = api
        self.threshold = threshold
        var env: OpaquePointer?
        try api.check(api.createEnv(3, "aibuds-vad", &env), "CreateEnv")
        guard let env else { throw AudioError.engineUnavailable("ONNX Runtime: no environment") }
        var options: OpaquePointer?
        var session: OpaquePointer?
        var memory: OpaquePointer?
        do {
            try api.check(api.createSessionOptions(&options), "CreateSessionOptions")
            defer { if let options { api.releaseSessionOptions(options) } }
            try modelBytes.withUnsafeBytes { bytes in
                try api.check(api.createSessionFromArray(env, bytes.baseAddress!, bytes.count, options, &session), "CreateSession")
            }
            try api.check(api.createCpuMemoryInfo(0, 0, &memory), "CreateCpuMemoryInfo")  // device allocator, default memory
        } catch {
            if let session { api.releaseSession(session) }
            api.releaseEnv(env)
            throw error
        }
        guard let session, let memory else { throw AudioError.engineUnavailable("ONNX Runtime: no session") }
        self.env = env
        self.session = session
        self.memory = memory
    }

    deinit {
        api.releaseMemoryInfo(memory)
        api.releaseSession(session)
        api.releaseEnv(env)
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
        var input = context + window.map { Float($0) / 32_768 }
        let inputCount = input.count
        var sr: Int64 = 16_000
        var output: Float = 0
        var nextState = [Float](repeating: 0, count: 2 * 128)
        var values: [OpaquePointer?] = []
        defer { for value in values { if let value { api.releaseValue(value) } } }
        func tensor(_ pointer: UnsafeMutableRawPointer, bytes: Int, shape: [Int64], type: Int32) throws -> OpaquePointer? {
            var value: OpaquePointer?
            let dims = shape.isEmpty ? [Int64(0)] : shape  // a scalar has no dimensions
            try dims.withUnsafeBufferPointer { buffer in
                try api.check(api.createTensor(memory, pointer, bytes, buffer.baseAddress!, shape.count, type, &value), "CreateTensor")
            }
            values.append(value)
            return value
        }
        try input.withUnsafeMutableBytes { inputBytes in
            try state.withUnsafeMutableBytes { stateBytes in
                try withUnsafeMutableBytes(of: &sr) { srBytes in
                    try withUnsafeMutableBytes(of: &output) { outBytes in
                        try nextState.withUnsafeMutableBytes { nextBytes in
                            let inputs = [
                                try tensor(inputBytes.baseAddress!, bytes: inputBytes.count, shape: [1, Int64(inputCount)], type: 1),
                                try tensor(stateBytes.baseAddress!, bytes: stateBytes.count, shape: [2, 1, 128], type: 1),
                                try tensor(srBytes.baseAddress!, bytes: 8, shape: [], type: 7),
                            ]
                            var outputs: [OpaquePointer?] = [
                                try tensor(outBytes.baseAddress!, bytes: 4, shape: [1, 1], type: 1),
                                try tensor(nextBytes.baseAddress!, bytes: nextBytes.count, shape: [2, 1, 128], type: 1),
                            ]
                            try Self.withCStrings(["input", "state", "sr"]) { inNames in
                                try Self.withCStrings(["output", "stateN"]) { outNames in
                                    try inputs.withUnsafeBufferPointer { inPtr in
                                        try outputs.withUnsafeMutableBufferPointer { outPtr in
                                            try api.check(api.run(session, nil, inNames, inPtr.baseAddress!, 3, outNames, 2,
                                                                  outPtr.baseAddress!), "Run")
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        state = nextState
        context = Array(input.suffix(Self.contextSamples))
        return output
    }

    /// Whether the next 512 samples hold speech (probability ≥ ``threshold``).
    public func isSpeech(_ window: ArraySlice<Int16>) throws -> Bool {
        try probability(window) >= threshold
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) throws -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        return try pointers.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}

/// The few functions of ONNX Runtime's C API (`OrtApi`, a table of function pointers whose order
/// is stable across releases) that Silero needs, taken from the library by `dlopen`.
private struct OrtFunctions {
    typealias Status = OpaquePointer?
    let errorMessage: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    let createEnv: @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createSessionFromArray: @convention(c) (OpaquePointer, UnsafeRawPointer, Int, OpaquePointer?,
                                                UnsafeMutablePointer<OpaquePointer?>) -> Status
    let run: @convention(c) (OpaquePointer, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<OpaquePointer?>, Int,
                             UnsafePointer<UnsafePointer<CChar>?>, Int, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createSessionOptions: @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createTensor: @convention(c) (OpaquePointer, UnsafeMutableRawPointer, Int, UnsafePointer<Int64>, Int, Int32,
                                      UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createCpuMemoryInfo: @convention(c) (Int32, Int32, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let releaseEnv: @convention(c) (OpaquePointer) -> Void
    let releaseStatus: @convention(c) (OpaquePointer) -> Void
    let releaseMemoryInfo: @convention(c) (OpaquePointer) -> Void
    let releaseSession: @convention(c) (OpaquePointer) -> Void
    let releaseValue: @convention(c) (OpaquePointer) -> Void
    let releaseSessionOptions: @convention(c) (OpaquePointer) -> Void

    /// API version 17 (ONNX Runtime 1.17): every function used here exists since long before.
    static let apiVersion: UInt32 = 17

    init(library: URL) throws {
        guard let handle = dlopen(library.path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown"
            throw AudioError.engineUnavailable("ONNX Runtime: cannot load \(library.path): \(reason)")
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            throw AudioError.engineUnavailable("ONNX Runtime: \(library.path) has no OrtGetApiBase")
        }
        typealias GetApiBase = @convention(c) () -> UnsafePointer<UnsafeRawPointer?>?
        typealias GetApi = @convention(c) (UInt32) -> UnsafePointer<UnsafeRawPointer?>?
        guard let base = unsafeBitCast(symbol, to: GetApiBase.self)(), let getApi = base[0],
              let table = unsafeBitCast(getApi, to: GetApi.self)(Self.apiVersion) else {
            throw AudioError.engineUnavailable("ONNX Runtime: the library does not offer C API version \(Self.apiVersion)")
        }
        func entry<F>(_ index: Int, _: F.Type) throws -> F {
            guard let pointer = table[index] else { throw AudioError.engineUnavailable("ONNX Runtime: C API entry \(index) is missing") }
            return unsafeBitCast(pointer, to: F.self)
        }
        errorMessage = try entry(2, type(of: errorMessage))
        createEnv = try entry(3, type(of: createEnv))
        createSessionFromArray = try entry(8, type(of: createSessionFromArray))
        run = try entry(9, type(of: run))
        createSessionOptions = try entry(10, type(of: createSessionOptions))
        createTensor = try entry(49, type(of: createTensor))
        createCpuMemoryInfo = try entry(69, type(of: createCpuMemoryInfo))
        releaseEnv = try entry(92, type(of: releaseEnv))
        releaseStatus = try entry(93, type(of: releaseStatus))
        releaseMemoryInfo = try entry(94, type(of: releaseMemoryInfo))
        releaseSession = try entry(95, type(of: releaseSession))
        releaseValue = try entry(96, type(of: releaseValue))
        releaseSessionOptions = try entry(100, type(of: releaseSessionOptions))
    }

    /// Throws the status's message (and frees it) when `status` is an error.
    func check(_ status: Status, _ what: String) throws {
        guard let status else { return }
        let message = errorMessage(status).map { String(cString: $0) } ?? "unknown"
        releaseStatus(status)
        throw AudioError.engineUnavailable("ONNX Runtime \(what): \(message)")
    }
}
