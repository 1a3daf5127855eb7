import Foundation
import Testing
@testable import TopStepComKit

@Suite struct TopStepModelTests {
    @Test func operationMaskHasTheVendorBits() {
        #expect(TSMediaFileOperation.list.rawValue == 1)
        #expect(TSMediaFileOperation.download.rawValue == 2)
        #expect(TSMediaFileOperation.delete.rawValue == 4)
        #expect(TSMediaFileOperation.deleteAll.rawValue == 8)
        #expect(TSMediaFileOperation.observeChanges.rawValue == 16)
        #expect(TSMediaFileOperation.none.isEmpty)
        #expect(TSMediaFileOperation.none.rawValue == 0)
    }

    @Test func operationMaskFromNamesIgnoresUnknownNames() {
        let mask = TSMediaFileOperation(names: ["list", "download", "delete", "observeChanges", "fly"])
        #expect(mask == [.list, .download, .delete, .observeChanges])
        #expect(!mask.contains(.deleteAll))
        #expect(mask.description == "list|download|delete|observeChanges")
        #expect(TSMediaFileOperation.none.description == "none")
    }

    @Test func mediaTypesMapToTheWire() {
        #expect(TSMediaFileType.unknown.rawValue == 0)
        #expect(TSMediaFileType.audioRecording.rawValue == 1)
        #expect(TSMediaFileType.audioRecording.wireType == 2)
        #expect(TSMediaFileType.unknown.wireType == nil)
        #expect(TSMediaFileType(wireType: 2) == .audioRecording)
        for other in [-1, 0, 1, 3, 99] { #expect(TSMediaFileType(wireType: other) == .unknown) }
    }

    @Test func errorsBecomeNSErrorsInTheTopStepDomain() {
        let cause = CocoaError(.fileNoSuchFile)
        let error = TSError(.notConnected, "no device", underlying: cause).nsError
        #expect(error.domain == TSErrorDomain)
        #expect(error.code == 2003)
        #expect(error.localizedDescription == "no device")
        #expect(error.userInfo[NSUnderlyingErrorKey] != nil)
        #expect(TSError.notSupported(.deleteAll, .audioRecording).nsError.code == 2004)
    }

    @Test func errorCodesHaveTheVendorValues() {
        let expected: [TSErrorEnum: Int] = [
            .unknown: 1001, .notReady: 2001, .notConnected: 2003, .notSupported: 2004, .noSpace: 2005,
            .busy: 2006, .invalidParameter: 3001, .parameterError: 3002, .invalidType: 3003,
            .dataGetFailed: 4001, .dataSetFailed: 4002, .dataFormatError: 4003, .dataEmpty: 4004,
            .previousTaskExecuting: 5001, .taskFailed: 5002, .timeout: 6001, .transmissionInterrupted: 6002,
            .protocolMismatch: 6005, .connectionReset: 6006, .channelBusy: 6008, .userCancelled: 7001,
        ]
        for (code, value) in expected { #expect(code.rawValue == value) }
        #expect(TSErrorEnum.allCases.count == 30)
    }

    @Test func modelReportsSizeAsNSNumber() {
        let model = TSMediaFileModel(identifier: "x", fileName: "a.wav", type: .audioRecording, fileSize: 1234)
        #expect(model.fileSize?.uint64Value == 1234)
        #expect(TSMediaFileModel(identifier: "x", fileName: "a.wav", type: .audioRecording, fileSize: nil).fileSize == nil)
        #expect(model == TSMediaFileModel(identifier: "x", fileName: "a.wav", type: .audioRecording, fileSize: 1234))
    }
}
