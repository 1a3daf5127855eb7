import AIBudsONNX
import Foundation
import Testing

/// ONNX Runtime opened at run time, on the Silero VAD model scripts/vad-venv.sh installs (float
/// tensors, an int64 scalar, a recurrent state carried by the caller).
@Suite struct ONNXSessionTests {
    private func sileroModel() throws -> URL {
        let model = ONNXRuntime.sitePackages().map { $0.appendingPathComponent("silero_vad/data/silero_vad.onnx") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
        return try #require(model, "run scripts/vad-venv.sh")
    }

    @Test func aModelRunsByNameWithItsTensorsCopiedInAndOut() throws {
        let session = try ONNXSession(model: try sileroModel())
        let window = (0..<576).map { Float(sin(Double($0) * 0.2)) * 0.5 }
        let outputs = try session.run([
            ("input", ONNXTensor(window, shape: [1, 576])),
            ("state", ONNXTensor([Float](repeating: 0, count: 256), shape: [2, 1, 128])),
            ("sr", ONNXTensor([Int64(16_000)], shape: [])),
        ], outputs: ["output", "stateN"])
        #expect(outputs[0].shape == [1, 1])
        let probability = try #require(outputs[0].floats?.first)
        #expect((0...1).contains(probability))
        #expect(outputs[1].shape == [2, 1, 128] && outputs[1].floats?.count == 256)
        // The same input gives the same answer: nothing is kept between runs but what is passed.
        let again = try session.run([
            ("input", ONNXTensor(window, shape: [1, 576])),
            ("state", ONNXTensor([Float](repeating: 0, count: 256), shape: [2, 1, 128])),
            ("sr", ONNXTensor([Int64(16_000)], shape: [])),
        ], outputs: ["output"])
        #expect(again[0] == outputs[0])
    }

    @Test func mistakesAreTypedErrorsNotCrashes() throws {
        let session = try ONNXSession(model: try sileroModel())
        // A shape that does not match the values, an unknown input, an unknown output.
        #expect(throws: ONNXRuntimeError.self) { _ = try session.run([("input", ONNXTensor([Float](repeating: 0, count: 3), shape: [1, 576]))], outputs: ["output"]) }
        #expect(throws: ONNXRuntimeError.self) { _ = try session.run([("nonsense", ONNXTensor([Float](repeating: 0, count: 1), shape: [1]))], outputs: ["output"]) }
        #expect(throws: ONNXRuntimeError.self) {
            _ = try session.run([
                ("input", ONNXTensor([Float](repeating: 0, count: 576), shape: [1, 576])),
                ("state", ONNXTensor([Float](repeating: 0, count: 256), shape: [2, 1, 128])),
                ("sr", ONNXTensor([Int64(16_000)], shape: [])),
            ], outputs: ["no such output"])
        }
        // A file that is not a model, and a library that is not there.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("onnx-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.onnx")
        try Data("not a model".utf8).write(to: junk)
        #expect(throws: ONNXRuntimeError.self) { _ = try ONNXSession(model: junk) }
        #expect(throws: ONNXRuntimeError.self) {
            _ = try ONNXRuntime.locateLibrary(environment: ["AIBUDS_ONNXRUNTIME": folder.appendingPathComponent("missing.so").path])
        }
        #expect(throws: ONNXRuntimeError.self) { _ = try ONNXRuntime(library: junk) }
    }
}
