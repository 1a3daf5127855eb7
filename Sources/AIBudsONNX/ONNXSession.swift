import AIBudsSync
import Foundation

/// A tensor going into or coming out of an ``ONNXSession``: its values, in Swift memory, and its
/// shape.
public struct ONNXTensor: Sendable, Equatable {
    /// The values, row-major, of one of the element types the project's models use.
    public enum Values: Sendable, Equatable {
        /// 32-bit floats (ONNX `float`).
        case float([Float])
        /// 64-bit integers (ONNX `int64`).
        case int64([Int64])
        /// Booleans (ONNX `bool`, one byte each).
        case bool([Bool])

        var count: Int {
            switch self {
            case .float(let values): values.count
            case .int64(let values): values.count
            case .bool(let values): values.count
            }
        }
    }

    /// The elements, row-major, with their type.
    public var values: Values
    /// The dimensions; their product is the number of values.
    public var shape: [Int64]

    /// A float tensor of `shape` holding `values`.
    public init(_ values: [Float], shape: [Int64]) {
        self.values = .float(values)
        self.shape = shape
    }

    /// An int64 tensor of `shape` holding `values`.
    public init(_ values: [Int64], shape: [Int64]) {
        self.values = .int64(values)
        self.shape = shape
    }

    /// A boolean tensor of `shape` holding `values`.
    public init(_ values: [Bool], shape: [Int64]) {
        self.values = .bool(values)
        self.shape = shape
    }

    /// The values when they are floats, else nil.
    public var floats: [Float]? {
        if case .float(let values) = values { return values }
        return nil
    }
}

/// One model loaded into ONNX Runtime, run on the CPU with its inputs and outputs named.
///
/// A run copies the inputs into buffers of its own and the outputs into Swift arrays, so nothing
/// the caller holds is shared with the library. Runs of one session are serialized.
public final class ONNXSession: @unchecked Sendable {
    private let runtime: ONNXRuntime
    private let session: OpaquePointer
    private let memory: OpaquePointer
    private let lock = Locked(())

    /// Loads the model file at `model` (`.onnx`, or ORT format `.ort`), run with `threads` threads
    /// within an operator and one operator at a time.
    public convenience init(model: URL, threads: Int = 1, runtime: ONNXRuntime? = nil) throws {
        let runtime = try runtime ?? ONNXRuntime.shared()
        try self.init(runtime: runtime, threads: threads) { options, out in
            model.path.withCString { runtime.api.createSession(runtime.environment, $0, options, out) }
        }
    }

    /// Loads a model from its bytes (an `.onnx` model; ORT format needs ``init(model:threads:runtime:)``).
    public convenience init(modelBytes: Data, threads: Int = 1, runtime: ONNXRuntime? = nil) throws {
        let runtime = try runtime ?? ONNXRuntime.shared()
        try self.init(runtime: runtime, threads: threads) { options, out in
            modelBytes.withUnsafeBytes { runtime.api.createSessionFromArray(runtime.environment, $0.baseAddress!, $0.count, options, out) }
        }
    }

    private init(
        runtime: ONNXRuntime, threads: Int,
        create: (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) -> OpaquePointer?
    ) throws {
        let api = runtime.api
        self.runtime = runtime
        var options: OpaquePointer?
        try api.check(api.createSessionOptions(&options), "CreateSessionOptions")
        guard let options else { throw ONNXRuntimeError("ONNX Runtime made no session options") }
        defer { api.releaseSessionOptions(options) }
        try api.check(api.setExecutionMode(options, 0), "SetSessionExecutionMode")
        try api.check(api.setGraphOptimizationLevel(options, 2), "SetSessionGraphOptimizationLevel")
        try api.check(api.setIntraOpThreads(options, Int32(max(1, threads))), "SetIntraOpNumThreads")
        try api.check(api.setInterOpThreads(options, 1), "SetInterOpNumThreads")
        var session: OpaquePointer?
        try api.check(create(options, &session), "CreateSession")
        guard let session else { throw ONNXRuntimeError("ONNX Runtime made no session") }
        var memory: OpaquePointer?
        do {
            try api.check(api.createCpuMemoryInfo(1, 0, &memory), "CreateCpuMemoryInfo")
        } catch {
            api.releaseSession(session)
            throw error
        }
        guard let memory else {
            api.releaseSession(session)
            throw ONNXRuntimeError("ONNX Runtime made no memory info")
        }
        self.session = session
        self.memory = memory
    }

    deinit {
        runtime.api.releaseMemoryInfo(memory)
        runtime.api.releaseSession(session)
    }

    /// Runs the model on `inputs` (by name) and returns the outputs named `outputs`, in that order.
    public func run(_ inputs: [(name: String, tensor: ONNXTensor)], outputs: [String]) throws -> [ONNXTensor] {
        try lock.withLock { _ in try runLocked(inputs, outputs: outputs) }
    }

    private func runLocked(_ inputs: [(name: String, tensor: ONNXTensor)], outputs: [String]) throws -> [ONNXTensor] {
        let api = runtime.api
        var buffers: [UnsafeMutableRawPointer] = []
        var values: [OpaquePointer?] = []
        var results = [OpaquePointer?](repeating: nil, count: outputs.count)
        defer {
            for value in values { if let value { api.releaseValue(value) } }
            for value in results { if let value { api.releaseValue(value) } }
            for buffer in buffers { buffer.deallocate() }
        }
        for (name, tensor) in inputs {
            let expected = tensor.shape.reduce(1, *)
            guard expected == Int64(tensor.values.count) else {
                throw ONNXRuntimeError("input \(name): \(tensor.values.count) values for shape \(tensor.shape)")
            }
            let (buffer, bytes, type) = Self.copy(tensor.values)
            buffers.append(buffer)
            var value: OpaquePointer?
            let dimensions = tensor.shape.isEmpty ? [Int64(0)] : tensor.shape  // a scalar: no dimensions, a valid pointer
            try dimensions.withUnsafeBufferPointer { shape in
                try api.check(api.createTensorWithData(memory, buffer, bytes, shape.baseAddress!, tensor.shape.count, type, &value),
                              "CreateTensorWithDataAsOrtValue(\(name))")
            }
            values.append(value)
        }
        let inputNames = inputs.map { strdup($0.name) }
        let outputNames = outputs.map { strdup($0) }
        defer {
            inputNames.forEach { free($0) }
            outputNames.forEach { free($0) }
        }
        let inputPointers = inputNames.map { UnsafePointer<CChar>($0) }
        let outputPointers = outputNames.map { UnsafePointer<CChar>($0) }
        try api.check(api.run(session, nil, inputPointers, values, values.count, outputPointers, outputs.count, &results), "Run")
        return try zip(outputs, results).map { name, value in
            guard let value else { throw ONNXRuntimeError("output \(name) is missing") }
            return try read(value, name)
        }
    }

    /// The values in a buffer of the library's layout: its pointer, its size in bytes, its ONNX
    /// element type.
    private static func copy(_ values: ONNXTensor.Values) -> (UnsafeMutableRawPointer, Int, Int32) {
        func buffer<T>(_ array: [T], _ type: Int32) -> (UnsafeMutableRawPointer, Int, Int32) {
            let bytes = max(1, array.count * MemoryLayout<T>.stride)
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
            array.withUnsafeBytes { if let base = $0.baseAddress { pointer.copyMemory(from: base, byteCount: $0.count) } }
            return (pointer, array.count * MemoryLayout<T>.stride, type)
        }
        switch values {
        case .float(let array): return buffer(array, 1)
        case .int64(let array): return buffer(array, 7)
        case .bool(let array): return buffer(array.map { UInt8($0 ? 1 : 0) }, 9)
        }
    }

    private func read(_ value: OpaquePointer, _ name: String) throws -> ONNXTensor {
        let api = runtime.api
        var info: OpaquePointer?
        try api.check(api.typeAndShape(value, &info), "GetTensorTypeAndShape(\(name))")
        guard let info else { throw ONNXRuntimeError("output \(name) has no type") }
        defer { api.releaseTypeAndShape(info) }
        var type: Int32 = 0
        var rank = 0
        var count = 0
        try api.check(api.elementType(info, &type), "GetTensorElementType(\(name))")
        try api.check(api.dimensionCount(info, &rank), "GetDimensionsCount(\(name))")
        var shape = [Int64](repeating: 0, count: max(1, rank))
        try shape.withUnsafeMutableBufferPointer { try api.check(api.dimensions(info, $0.baseAddress!, rank), "GetDimensions(\(name))") }
        shape = Array(shape.prefix(rank))
        try api.check(api.elementCount(info, &count), "GetTensorShapeElementCount(\(name))")
        var data: UnsafeMutableRawPointer?
        try api.check(api.tensorData(value, &data), "GetTensorMutableData(\(name))")
        guard count == 0 || data != nil else { throw ONNXRuntimeError("output \(name) has no data") }
        switch type {
        case 1:
            return ONNXTensor(count == 0 ? [] : Array(UnsafeBufferPointer(start: data!.assumingMemoryBound(to: Float.self), count: count)), shape: shape)
        case 7:
            return ONNXTensor(count == 0 ? [] : Array(UnsafeBufferPointer(start: data!.assumingMemoryBound(to: Int64.self), count: count)), shape: shape)
        case 9:
            return ONNXTensor(count == 0 ? [] : UnsafeBufferPointer(start: data!.assumingMemoryBound(to: UInt8.self), count: count).map { $0 != 0 }, shape: shape)
        default:
            throw ONNXRuntimeError("output \(name) has ONNX element type \(type), which this SDK does not read")
        }
    }
}
