import AIBudsFiles
import AIBudsSync
import Foundation

/// What went wrong with ONNX Runtime: the library or a model could not load, or a run failed.
public struct ONNXRuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, with ONNX Runtime's own message when it gave one.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// ONNX Runtime's C API, loaded at run time with `dlopen` from the shared library that
/// onnxruntime's Python wheel ships (`scripts/vad-venv.sh` installs it), so that no product links
/// it and a machine without it still runs everything else. One per process (``shared()``): the
/// library's environment is process-wide.
///
/// The API is a table of function pointers whose order is stable across releases; version 16 (ONNX
/// Runtime 1.16, the oldest that reads the ORT-format models used here) is asked for.
public final class ONNXRuntime: Sendable {
    let api: ONNXFunctions
    nonisolated(unsafe) let environment: OpaquePointer
    /// The library that was loaded.
    public let library: URL

    private static let loaded = Locked<Result<ONNXRuntime, ONNXRuntimeError>?>(nil)

    /// The process's runtime, loading the library from ``locateLibrary(environment:)`` on first use
    /// (a failure is kept: install the library before the process starts).
    public static func shared() throws -> ONNXRuntime {
        try loaded.withLock { loaded in
            if loaded == nil {
                loaded = Result { try ONNXRuntime(library: try locateLibrary()) }.mapError { $0 as? ONNXRuntimeError ?? ONNXRuntimeError("\($0)") }
            }
            return try loaded!.get()
        }
    }

    /// The ONNX Runtime library: `$AIBUDS_ONNXRUNTIME` (a file), else the newest onnxruntime
    /// installed by `scripts/vad-venv.sh` under `~/.cache/aibuds` (or in `$AIBUDS_VAD_VENV`).
    public static func locateLibrary(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL {
        let fm = FileManager.default
        if let path = environment["AIBUDS_ONNXRUNTIME"], !path.isEmpty {
            guard fm.fileExists(atPath: path) else { throw ONNXRuntimeError("AIBUDS_ONNXRUNTIME names \(path), which does not exist") }
            return URL(fileURLWithPath: path)
        }
        for site in sitePackages(environment: environment) {
            let capi = site.appendingPathComponent("onnxruntime/capi")
            let library = ((try? fm.contentsOfDirectory(atPath: capi.path)) ?? [])
                .filter { $0.hasPrefix("libonnxruntime.so") }.sorted().last
            if let library { return capi.appendingPathComponent(library) }
        }
        throw ONNXRuntimeError("ONNX Runtime is not installed (run scripts/vad-venv.sh, or set AIBUDS_ONNXRUNTIME)")
    }

    /// The `site-packages` folders of the Python venvs `scripts/vad-venv.sh` makes, newest first.
    public static func sitePackages(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        let fm = FileManager.default
        var venvs: [URL] = []
        if let venv = environment["AIBUDS_VAD_VENV"], !venv.isEmpty { venvs.append(URL(fileURLWithPath: venv)) }
        let cache = XDGFolder.cache(environment: environment)
        let names = ((try? fm.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasPrefix("vad-venv-") }.sorted()
        venvs += names.reversed().map { cache.appendingPathComponent($0) }
        return venvs.flatMap { venv -> [URL] in
            let lib = venv.appendingPathComponent("lib")
            return ((try? fm.contentsOfDirectory(atPath: lib.path)) ?? []).filter { $0.hasPrefix("python") }.sorted()
                .map { lib.appendingPathComponent($0).appendingPathComponent("site-packages") }
        }
    }

    /// Loads `library` and creates the process's ONNX Runtime environment (warnings and errors
    /// only). Prefer ``shared()``: a second environment in one process is refused by some releases.
    public init(library: URL) throws {
        api = try ONNXFunctions(library: library)
        var environment: OpaquePointer?
        try api.check(api.createEnv(3, "aibuds", &environment), "CreateEnv")
        guard let environment else { throw ONNXRuntimeError("ONNX Runtime made no environment") }
        self.environment = environment
        self.library = library
    }
}
