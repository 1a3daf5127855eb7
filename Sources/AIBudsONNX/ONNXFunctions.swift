import Foundation

/// The functions of ONNX Runtime's C API (`OrtApi`, a table of function pointers in a fixed
/// order) the project uses, taken from the library by `dlopen`.
struct ONNXFunctions: @unchecked Sendable {
    typealias Status = OpaquePointer?
    typealias Out = UnsafeMutablePointer<OpaquePointer?>
    let errorMessage: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    let createEnv: @convention(c) (Int32, UnsafePointer<CChar>, Out) -> Status
    let createSession: @convention(c) (OpaquePointer, UnsafePointer<CChar>, OpaquePointer, Out) -> Status
    let createSessionFromArray: @convention(c) (OpaquePointer, UnsafeRawPointer, Int, OpaquePointer, Out) -> Status
    let run: @convention(c) (OpaquePointer, OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<OpaquePointer?>, Int,
                             UnsafePointer<UnsafePointer<CChar>?>, Int, UnsafeMutablePointer<OpaquePointer?>) -> Status
    let createSessionOptions: @convention(c) (Out) -> Status
    let setExecutionMode: @convention(c) (OpaquePointer, Int32) -> Status
    let setGraphOptimizationLevel: @convention(c) (OpaquePointer, Int32) -> Status
    let setIntraOpThreads: @convention(c) (OpaquePointer, Int32) -> Status
    let setInterOpThreads: @convention(c) (OpaquePointer, Int32) -> Status
    let createTensorWithData: @convention(c) (OpaquePointer, UnsafeMutableRawPointer, Int, UnsafePointer<Int64>, Int, Int32, Out) -> Status
    let tensorData: @convention(c) (OpaquePointer, UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Status
    let elementType: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int32>) -> Status
    let dimensionCount: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> Status
    let dimensions: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int64>, Int) -> Status
    let elementCount: @convention(c) (OpaquePointer, UnsafeMutablePointer<Int>) -> Status
    let typeAndShape: @convention(c) (OpaquePointer, Out) -> Status
    let createCpuMemoryInfo: @convention(c) (Int32, Int32, Out) -> Status
    let releaseStatus: @convention(c) (OpaquePointer) -> Void
    let releaseMemoryInfo: @convention(c) (OpaquePointer) -> Void
    let releaseSession: @convention(c) (OpaquePointer) -> Void
    let releaseValue: @convention(c) (OpaquePointer) -> Void
    let releaseTypeAndShape: @convention(c) (OpaquePointer) -> Void
    let releaseSessionOptions: @convention(c) (OpaquePointer) -> Void

    /// API version 16 (ONNX Runtime 1.16): every entry used here is older.
    static let apiVersion: UInt32 = 16

    init(library: URL) throws {
        guard let handle = dlopen(library.path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown"
            throw ONNXRuntimeError("ONNX Runtime: cannot load \(library.path): \(reason)")
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            throw ONNXRuntimeError("ONNX Runtime: \(library.path) has no OrtGetApiBase")
        }
        typealias GetApiBase = @convention(c) () -> UnsafePointer<UnsafeRawPointer?>?
        typealias GetApi = @convention(c) (UInt32) -> UnsafePointer<UnsafeRawPointer?>?
        guard let base = unsafeBitCast(symbol, to: GetApiBase.self)(), let getApi = base[0],
              let table = unsafeBitCast(getApi, to: GetApi.self)(Self.apiVersion) else {
            throw ONNXRuntimeError("ONNX Runtime: \(library.path) does not offer C API version \(Self.apiVersion) (1.16 or newer is needed)")
        }
        func entry<F>(_ index: Int, _: F.Type) throws -> F {
            guard let pointer = table[index] else { throw ONNXRuntimeError("ONNX Runtime: C API entry \(index) is missing") }
            return unsafeBitCast(pointer, to: F.self)
        }
        // The indices are the entries' places in `struct OrtApi` (onnxruntime_c_api.h).
        errorMessage = try entry(2, type(of: errorMessage))
        createEnv = try entry(3, type(of: createEnv))
        createSession = try entry(7, type(of: createSession))
        createSessionFromArray = try entry(8, type(of: createSessionFromArray))
        run = try entry(9, type(of: run))
        createSessionOptions = try entry(10, type(of: createSessionOptions))
        setExecutionMode = try entry(13, type(of: setExecutionMode))
        setGraphOptimizationLevel = try entry(23, type(of: setGraphOptimizationLevel))
        setIntraOpThreads = try entry(24, type(of: setIntraOpThreads))
        setInterOpThreads = try entry(25, type(of: setInterOpThreads))
        createTensorWithData = try entry(49, type(of: createTensorWithData))
        tensorData = try entry(51, type(of: tensorData))
        elementType = try entry(60, type(of: elementType))
        dimensionCount = try entry(61, type(of: dimensionCount))
        dimensions = try entry(62, type(of: dimensions))
        elementCount = try entry(64, type(of: elementCount))
        typeAndShape = try entry(65, type(of: typeAndShape))
        createCpuMemoryInfo = try entry(69, type(of: createCpuMemoryInfo))
        releaseStatus = try entry(93, type(of: releaseStatus))
        releaseMemoryInfo = try entry(94, type(of: releaseMemoryInfo))
        releaseSession = try entry(95, type(of: releaseSession))
        releaseValue = try entry(96, type(of: releaseValue))
        releaseTypeAndShape = try entry(99, type(of: releaseTypeAndShape))
        releaseSessionOptions = try entry(100, type(of: releaseSessionOptions))
    }

    /// Throws the status's message (and frees it) when `status` is an error.
    func check(_ status: Status, _ what: String) throws {
        guard let status else { return }
        let message = errorMessage(status).map { String(cString: $0) } ?? "unknown"
        releaseStatus(status)
        throw ONNXRuntimeError("ONNX Runtime \(what): \(message)")
    }
}
