import Foundation
import Testing
import TopStepComKit

// TopStep's media file API (`TSMediaFile`) as TopStep's published documentation and SDK headers
// give it, written the way an app developer writes it from those pages. This file imports the module without
// `@testable`, so everything it names must be public. A renamed member, a changed label or block shape,
// or a changed case fails the build; a changed raw value or bit fails a test.

/// Compiles only when both are exactly the same type: no optional promotion, no function conversion.
private func sameType<T>(_: T.Type, _: T.Type) {}

@Suite("TopStep public API conformance")
struct TopStepPublicAPIConformanceTests {
    @Test func operationMaskHasTheVendorBits() {
        #expect(TSMediaFileOperation.list.rawValue == 1 << 0)
        #expect(TSMediaFileOperation.download.rawValue == 1 << 1)
        #expect(TSMediaFileOperation.delete.rawValue == 1 << 2)
        #expect(TSMediaFileOperation.deleteAll.rawValue == 1 << 3)
        #expect(TSMediaFileOperation.observeChanges.rawValue == 1 << 4)
        #expect(TSMediaFileOperation.none.isEmpty && TSMediaFileOperation.none.rawValue == 0)
        sameType(TSMediaFileOperation.RawValue.self, UInt.self)

        // The documentation's `operations & TSMediaFileOperationList`, in Swift.
        let operations: TSMediaFileOperation = [.list, .download, .delete, .observeChanges]
        #expect(operations.contains(.list) && !operations.contains(.deleteAll))
        #expect(operations.rawValue == 0b10111)
        #expect(TSMediaFileOperation(rawValue: 0b01000) == .deleteAll)
    }

    @Test func mediaFileTypesHaveTheVendorValues() {
        for type in TSMediaFileType.allCases {
            switch type {
            case .unknown: #expect(type.rawValue == 0)
            case .audioRecording: #expect(type.rawValue == 1)
            }
        }
        #expect(TSMediaFileType(rawValue: 1) == .audioRecording)
    }

    @Test func errorCodesHaveTheVendorValues() {
        // `vendorValue` is an exhaustive switch: a case added, removed or renamed fails the build.
        for code in TSErrorEnum.allCases { #expect(code.rawValue == vendorValue(code), "\(code)") }
        let vendorCodes = [
            Array(1001...1004), Array(2001...2006), Array(3001...3004), Array(4001...4004), Array(5001...5003),
            Array(6001...6008), [7001],
        ].joined()
        #expect(Set(TSErrorEnum.allCases.map(\.rawValue)) == Set(vendorCodes))
    }

    @Test func blocksHaveTheDocumentedShapes() {
        // Every block runs on the main queue, hence `@MainActor`; they are `@Sendable` as the SDK calls
        // them from its own tasks.
        sameType(TSCompletionBlock.self, (@MainActor @Sendable (Bool, NSError?) -> Void).self)
        sameType(TSMediaFileListBlock.self, (@MainActor @Sendable ([TSMediaFileModel]?, NSError?) -> Void).self)
        sameType(TSMediaFileDownloadProgressBlock.self, (@MainActor @Sendable (Double) -> Void).self)
        sameType(TSMediaFileDownloadCompletionBlock.self, (@MainActor @Sendable (String?, NSError?) -> Void).self)
        sameType(TSMediaFileListDidChangedBlock.self, (@MainActor @Sendable (TSMediaFileType) -> Void).self)
    }

    @Test func modelHasTheDocumentedProperties() {
        let _: KeyPath<TSMediaFileModel, String> = \.identifier
        let _: KeyPath<TSMediaFileModel, String> = \.fileName
        let _: KeyPath<TSMediaFileModel, TSMediaFileType> = \.type
        let _: KeyPath<TSMediaFileModel, NSNumber?> = \.fileSize
        let model = TSMediaFileModel(identifier: "opaque", fileName: "REC_0001.wav", type: .audioRecording, fileSize: 4096)
        #expect(model.identifier == "opaque" && model.fileName == "REC_0001.wav" && model.type == .audioRecording)
        #expect(model.fileSize == NSNumber(value: 4096))
    }

    @Test func theMediaFeatureIsReachedThroughTheSharedInstance() {
        let kit: TopStepComKit = TopStepComKit.sharedInstance
        let mediaFile: any TSMediaFileInterface = kit.mediaFile
        #expect(mediaFile === TopStepComKit.sharedInstance.mediaFile)
    }
}

// MARK: Calls as an app writes them from TopStep's documentation (compiled, never run)

/// The documentation's calls with their documented labels and block shapes. It only has to compile; running
/// it would need a bound device.
private func appCodeFromTheSeed(selectedFile: TSMediaFileModel, recordingsFolder: String) {
    let mediaFile: any TSMediaFileInterface = TopStepComKit.sharedInstance.mediaFile
    let operations: TSMediaFileOperation = mediaFile.supportedOperations(for: .audioRecording)

    if operations.contains(.list) {
        mediaFile.fetchMediaFiles(of: .audioRecording) { (files: [TSMediaFileModel]?, error: NSError?) in
            if let error {
                TSLog("Failed to fetch recordings: %@", error.localizedDescription)
                return
            }
            TSLog("The device has %lu recordings", files?.count ?? 0)
        }
    }

    mediaFile.downloadMediaFile(selectedFile, localFolderPath: recordingsFolder, progress: { (progress: Double) in
        TSLog("Download: %.1f%%", progress)
    }, completion: { (localFilePath: String?, error: NSError?) in
        if let error {
            TSLog("Download failed: %@", error.localizedDescription)
            return
        }
        TSLog("Saved to: %@", localFilePath ?? "")
    })

    if operations.contains(.delete) {
        mediaFile.deleteMediaFile(selectedFile) { (isSuccess: Bool, error: NSError?) in _ = (isSuccess, error) }
    }
    if operations.contains(.deleteAll) {
        mediaFile.deleteAllMediaFiles(of: .audioRecording) { isSuccess, error in _ = (isSuccess, error) }
    }
    if operations.contains(.observeChanges) {
        mediaFile.registerMediaFileListDidChangedBlock { (type: TSMediaFileType) in _ = type }
    }
    mediaFile.registerMediaFileListDidChangedBlock(nil)
}

/// TopStep's error codes (its published `TSErrorEnum`), one exhaustive switch.
private func vendorValue(_ code: TSErrorEnum) -> Int {
    switch code {
    case .unknown: 1001
    case .sdkInitFailed: 1002
    case .licenseError: 1003
    case .configError: 1004
    case .notReady: 2001
    case .lowBattery: 2002
    case .notConnected: 2003
    case .notSupported: 2004
    case .noSpace: 2005
    case .busy: 2006
    case .invalidParameter: 3001
    case .parameterError: 3002
    case .invalidType: 3003
    case .parameterSizeError: 3004
    case .dataGetFailed: 4001
    case .dataSetFailed: 4002
    case .dataFormatError: 4003
    case .dataEmpty: 4004
    case .previousTaskExecuting: 5001
    case .taskFailed: 5002
    case .taskNotStarted: 5003
    case .timeout: 6001
    case .transmissionInterrupted: 6002
    case .interference: 6003
    case .packetLoss: 6004
    case .protocolMismatch: 6005
    case .connectionReset: 6006
    case .bufferOverflow: 6007
    case .channelBusy: 6008
    case .userCancelled: 7001
    }
}
