import Foundation
import Testing
@testable import TopStepComKit

@Suite struct TopStepIdentifierTests {
    let sample = MediaFileIdentifier(device: "D1", generation: 7, id: "f-42", name: "rec 01/..\u{0}.wav", type: 2)

    @Test func identifierRoundTripsAndLooksOpaque() throws {
        let text = sample.encoded
        #expect(text.hasPrefix("ts1."))
        #expect(!text.contains("rec"))
        #expect(!text.contains("/") && !text.contains("+") && !text.contains("="))
        #expect(MediaFileIdentifier(encoded: text) == sample)
    }

    @Test(arguments: ["", "ts1.", "ts1.!!!", "ts2.eyJkIjoiRDEifQ", "f-42", "ts1.eyJkIjoiRDEifQ", "ts1.e30="])
    func madeUpIdentifiersDoNotParse(_ text: String) {
        #expect(MediaFileIdentifier(encoded: text) == nil)
    }

    @Test func hugeIdentifierIsRejectedWithoutDecoding() {
        #expect(MediaFileIdentifier(encoded: "ts1." + String(repeating: "A", count: 1_000_000)) == nil)
    }

    @Test func validationBindsToDeviceNameAndType() throws {
        let good = TSMediaFileModel(identifier: sample.encoded, fileName: sample.name, type: .audioRecording, fileSize: nil)
        #expect(try MediaFileIdentifier.validated(good, device: "D1") == sample)

        func code(_ model: TSMediaFileModel, device: String = "D1") -> TSErrorEnum? {
            do { _ = try MediaFileIdentifier.validated(model, device: device); return nil } catch { return error.code }
        }
        #expect(code(good, device: "D2") == .invalidParameter)
        #expect(code(TSMediaFileModel(identifier: "made-up", fileName: sample.name, type: .audioRecording, fileSize: nil)) == .invalidParameter)
        #expect(code(TSMediaFileModel(identifier: sample.encoded, fileName: "other.wav", type: .audioRecording, fileSize: nil)) == .invalidParameter)
        #expect(code(TSMediaFileModel(identifier: sample.encoded, fileName: sample.name, type: .unknown, fileSize: nil)) == .invalidParameter)
    }
}
