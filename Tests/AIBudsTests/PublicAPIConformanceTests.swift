import AIBuds
import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

// The public API as the vendor documents it (its "Import Media Files" page, its architecture
// overview, and the Swift interfaces of its published SDK), written the way an app developer writes
// it from those pages. This file imports the modules without
// `@testable`, so everything it names must be public. A renamed member, a changed label, type,
// optionality or `@Sendable`, or a changed case fails the build; a changed raw value fails a test.

/// Compiles only when both are exactly the same type: no optional promotion, no function conversion.
private func sameType<T>(_: T.Type, _: T.Type) {}

@Suite("Public API conformance")
struct PublicAPIConformanceTests {
    // MARK: Error codes

    @Test func sdkErrorCodesHaveTheVendorRawValues() {
        let named: [(SdkErrorCode, Int)] = [
            (.unknown, -1), (.deviceNotSupport, 1), (.deviceNotConnected, 2), (.deviceNotReady, 3), (.deviceBusy, 4),
            (.scanningAlreadyRunning, 1004), (.bleCommandExecFailedDueToTimeout, 2006),
            (.operationFailedDueToWrongParameters, 3001),
            (.operationFailedDueToDeviceReturnNonSuccessStatusCode, 3002),
            (.operationFailedDueToDeviceResponseDataParsingFailed, 3003),
            (.hotspotConnectionFailed, 4001),
            (.fileImportNotReady, 6001), (.fileImportAlreadyInProgress, 6002), (.fileImportNotInProgress, 6003),
            (.importFilesFailedDueToDeviceHotspotConnectionLost, 6013),
        ]
        for (code, value) in named { #expect(code.rawValue == value, "\(code)") }
        #expect(SdkErrorCode.fileImportAlreadyInProgress.rawValue == 6002)

        // Every code of the vendor's ranges exists: scanning, link, file import.
        let ranges = [Array(1001...1005), Array(2001...2009), Array(6000...6017)]
        for value in ranges.joined() { #expect(SdkErrorCode(rawValue: value) != nil, "code \(value)") }

        // Errors reach apps as NSErrors of domain `AIBudsSDK.ErrorDomain` with these codes.
        #expect(AIBudsSDK.ErrorDomain == "AIBudsSDK.ErrorDomain")
        let error: NSError = SdkErrorCode.fileImportAlreadyInProgress.makeError()
        #expect(error.domain == AIBudsSDK.ErrorDomain && error.code == 6002)
    }

    // MARK: Enums (module AIBudsFoundation)

    @Test func enumsHaveTheVendorCasesAndRawValues() {
        // Each `vendorValue` switch is exhaustive: a case added, removed or renamed fails the build.
        for value in MediaFileType.allCases { #expect(value.rawValue == vendorValue(value)) }
        for value in DeviceProduct.allCases { #expect(value.rawValue == vendorValue(value)) }
        for value in DeviceState.allCases { #expect(value.rawValue == vendorValue(value)) }
        for value in BleProtocolKind.allCases where value != .smp { #expect(value.rawValue == vendorValue(value)) }
        for value in HotspotMode.allCases { #expect(value.rawValue == vendorValue(value)) }
        for value in HotspotState.allCases { #expect(value.rawValue == vendorValue(value)) }
        for value in WorkState.allCases { #expect(value.rawValue == vendorValue(value)) }
        for value in FileDeletingProgressEvent.allCases { #expect(value.rawValue == vendorValue(value)) }
        #expect(WorkState.allCases.count == 22)
        #expect(HotspotState.allCases.count == 7)
        #expect(DeviceState.allCases.count == 8)
        #expect(DeviceProduct.allCases.count == 7)
    }

    @Test func aiServiceVendorIsSpelledAsTheVendorSpellsIt() {
        // `.starBurst` with an uppercase B, `.mltcloud` all lowercase, as the vendor spells them.
        let vendors: [AIServiceVendor] = [.none, .starBurst, .mltcloud]
        #expect(vendors == AIServiceVendor.allCases)
        for vendor in vendors {
            switch vendor {
            case .none, .starBurst, .mltcloud: break
            }
        }
        #expect(Set(vendors.map(\.rawValue)).count == 3)
    }

    @Test func stabilizationStatusHasTheCasesTheSeedNames() {
        let all: [VideoStabilizationStatus] = [.pending, .stabilized, .failed, .pluginUnavailable, .skipped, .disabled]
        #expect(all == VideoStabilizationStatus.allCases)
    }

    // MARK: Handler type aliases

    @Test func handlerAliasesHaveTheDocumentedShapes() {
        sameType(AIBudsScanningOnDeviceFoundHandler.self, (@Sendable (any FoundDeviceConvertible, Bool) -> Void).self)
        sameType(AIBudsOnScanStopHandler.self, (@Sendable () -> Void).self)
        sameType(AIBudsCompletionHandler.self, (@Sendable (Bool, NSError?) -> Void).self)
        sameType(AIBudsStatusCodeCompletionHandler.self, (@Sendable (Bool, NSNumber?, NSError?) -> Void).self)

        // DeviceMediaFileImportAPI as the vendor publishes it, in the order of the declarations.
        sameType(AIBudsMediaFileImportConfigureHotspotStartingHandler.self, (@Sendable () -> Void).self)
        sameType(AIBudsMediaFileImportHotspotConfigureCompletionHandler.self, (@Sendable (Bool, NSError?) -> Void).self)
        sameType(AIBudsEnterMediaFileTransferModeStartingHandler.self, (@Sendable () -> Void).self)
        sameType(AIBudsEnterMediaFileTransferModeCompletionHandler.self, (@Sendable (Bool, NSError?) -> Void).self)
        sameType(AIBudsMediaFileImportStartingToWaitForHotspotOpenHandler.self, (@Sendable () -> Void).self)
        sameType(AIBudsMediaFileImportConnectDeviceHotspotStartingHandler.self, (@Sendable (String) -> Void).self)
        sameType(
            AIBudsMediaFileImportDeviceHotspotConnectCompletionHandler.self, (@Sendable (Bool, NSError?) -> Void).self)
        sameType(
            AIBudsMediaFileImportFetchMediaFilesInfoCompletionHandler.self,
            (@Sendable (Bool, [MediaFileInfoModel], NSError?) -> Void).self)
        sameType(
            AIBudsMediaFileImportDataChunkHandler.self,
            (@Sendable (Data?, String, String, UInt64, UInt64, NSError?) -> Void).self)
        sameType(AIBudsMediaFileImportSingleTransferStartingHandler.self, (@Sendable (MediaFileInfoModel) -> Void).self)
        sameType(
            AIBudsMediaFileImportSingleTransferCompletionHandler.self,
            (@Sendable (Bool, ImportedMediaFileModel, NSError?) -> Void).self)
        sameType(AIBudsMediaFileImportTransferSpeedHandler.self, (@Sendable (UInt64) -> Void).self)
        sameType(AIBudsMediaFileImportTransferBatchProgressHandler.self, (@Sendable (Int, Int) -> Void).self)
        sameType(AIBudsVideoStabilizationPhaseBeginHandler.self, (@Sendable () -> Void).self)
        sameType(AIBudsVideoStabilizationProgressHandler.self, (@Sendable (ImportedMediaFileModel, Double) -> Void).self)
        sameType(
            AIBudsVideoStabilizationSingleFileCompletionHandler.self, (@Sendable (ImportedMediaFileModel, Bool) -> Void).self)
        sameType(AIBudsVideoStabilizationBatchProgressHandler.self, (@Sendable (Int, Int) -> Void).self)
        sameType(AIBudsVideoStabilizationPhaseFinishHandler.self, (@Sendable () -> Void).self)
        sameType(
            AIBudsMediaFileImportCompletionHandler.self, (@Sendable (Bool, [ImportedMediaFileModel], NSError?) -> Void).self)

        // The vendor's two names of the import protocol are one protocol.
        sameType((any DeviceFileImportAPI).self, (any DeviceMediaFileImportAPI).self)
    }

    @Test func handlersWrittenWithTheDocumentedParametersReceiveTheirArguments() {
        let seen = Locked<[String]>([])
        let model = MediaFileInfoModel(fileType: .video, fileName: "example.mp4", baseUrl: "http://192.0.2.1:8080")
        let imported = ImportedMediaFileModel(metadata: model, localFileURL: URL(fileURLWithPath: "/tmp/example.mp4"))

        let dataChunkHandler: AIBudsMediaFileImportDataChunkHandler = {
            dataChunk, taskId, fileUrl, fileSize, transferredSize, error in
            guard error == nil, fileSize > 0 else { return }
            let progress = Double(transferredSize) / Double(fileSize)
            seen.withLock { $0.append("\(taskId) \(fileUrl) \(dataChunk?.count ?? 0) \(Int(progress * 100))%") }
        }
        let singleTransferCompletionHandler: AIBudsMediaFileImportSingleTransferCompletionHandler = {
            success, importedMediaFile, error in
            seen.withLock { $0.append("\(success) \(importedMediaFile.metadata.fileName) \(error == nil)") }
        }
        let progressHandler: AIBudsVideoStabilizationProgressHandler = { mediaFile, progress in
            seen.withLock { $0.append("\(mediaFile.metadata.fileName) \(progress)") }
        }
        let statusCodeCompletion: AIBudsStatusCodeCompletionHandler = { success, statusCode, error in
            seen.withLock { $0.append("\(success) \(statusCode?.intValue ?? -1) \(error?.code ?? 0)") }
        }

        dataChunkHandler(Data(count: 512), "task-1", model.fileUrl, 2048, 1024, nil)
        dataChunkHandler(nil, "task-1", model.fileUrl, 2048, 1024, SdkErrorCode.importFilesFailedDueToNetworkError.makeError())
        singleTransferCompletionHandler(true, imported, nil)
        progressHandler(imported, 0.5)
        statusCodeCompletion(true, NSNumber(value: 0), nil)
        statusCodeCompletion(false, nil, SdkErrorCode.fileImportNotInProgress.makeError())

        #expect(seen.withLock { $0 } == [
            "task-1 \(model.fileUrl) 512 50%",
            "true example.mp4 true",
            "example.mp4 0.5",
            "true 0 0",
            "false -1 6003",
        ])
    }

    // MARK: Models

    @Test func connectParamsAreBuiltAsInTheArchitectureSeed() throws {
        let configs = ["STARBURST_PRODUCTID": "starburst-product", "MLTCLOUD_CHANNELID": "mltcloud-channel"]

        // The architecture overview's snippet (AIBudsTestKit keeps it verbatim for this test and
        // the SMP device test that connects with it).
        let params = architectureSeedConnectParams(configs)
        let starBurst = try #require(params.aiAuthParams?.starburst)

        #expect(params.userId == "199")
        #expect(params.aiAuthParams?.starburst?.productId == "starburst-product")
        #expect(params.aiAuthParams?.mltcloud?.channelId == "mltcloud-channel")
        #expect(params.randomCode == nil && params.enableClassicBT == false)
        #expect(starBurst.ppeEnv == nil && starBurst.authSdk == nil)

        params.randomCode = "4711"
        params.enableClassicBT = true
        starBurst.authSdk = NSNumber(value: 2)
        starBurst.ppeEnv = "ppe_test"
        let decoded = try JSONDecoder().decode(ConnectParams.self, from: JSONEncoder().encode(params))
        #expect(decoded.userId == "199" && decoded.randomCode == "4711" && decoded.enableClassicBT)
        #expect(decoded.aiAuthParams?.starburst?.authSdk == NSNumber(value: 2))
        #expect(decoded.aiAuthParams?.starburst?.ppeEnv == "ppe_test")
        #expect(decoded.aiAuthParams?.mltcloud?.channelId == "mltcloud-channel")

        let _: KeyPath<ConnectParams, String?> = \.userId
        let _: KeyPath<ConnectParams, String?> = \.randomCode
        let _: KeyPath<ConnectParams, Bool> = \.enableClassicBT
        let _: KeyPath<ConnectParams, AIAuthParams?> = \.aiAuthParams
        let _: KeyPath<AIAuthParams, StarBurstAIAuthParams?> = \.starburst
        let _: KeyPath<AIAuthParams, MltCloudAIAuthParams?> = \.mltcloud
        let _: KeyPath<StarBurstAIAuthParams, NSNumber?> = \.authSdk
    }

    @Test func mediaModelsHaveTheDocumentedMembers() {
        let model = MediaFileInfoModel(
            fileType: .video, fileName: "VID_0001.mp4", baseUrl: "http://192.0.2.1:8080",
            containsSixAxisDebounceInfo: true)
        let _: KeyPath<MediaFileInfoModel, MediaFileType> = \.fileType
        let _: KeyPath<MediaFileInfoModel, String> = \.fileName
        let _: KeyPath<MediaFileInfoModel, String> = \.baseUrl
        let _: KeyPath<MediaFileInfoModel, Bool> = \.containsSixAxisDebounceInfo
        let _: KeyPath<MediaFileInfoModel, String> = \.fileUrl
        #expect(model.fileUrl.hasPrefix(model.baseUrl) && model.fileUrl.hasSuffix(model.fileName))

        let imported = ImportedMediaFileModel(
            metadata: model, localFileURL: URL(fileURLWithPath: "/tmp/VID_0001.mp4"), stabilizationStatus: .disabled)
        let _: KeyPath<ImportedMediaFileModel, MediaFileInfoModel> = \.metadata
        let _: KeyPath<ImportedMediaFileModel, URL> = \.localFileURL
        let _: KeyPath<ImportedMediaFileModel, URL?> = \.stabilizedFileURL
        let _: KeyPath<ImportedMediaFileModel, VideoStabilizationStatus> = \.stabilizationStatus
        let _: KeyPath<ImportedMediaFileModel, NSError?> = \.error
        #expect(imported.metadata === model && imported.stabilizedFileURL == nil && imported.error == nil)

        let counts = MediaCountInfoModel(photoCount: 3, videoCount: 2, audioCount: 1)
        let _: KeyPath<MediaCountInfoModel, NSNumber> = \.photoCount
        let _: KeyPath<MediaCountInfoModel, NSNumber> = \.videoCount
        let _: KeyPath<MediaCountInfoModel, NSNumber> = \.audioCount
        #expect(counts.photoCount.intValue == 3 && counts.videoCount.intValue == 2 && counts.audioCount.intValue == 1)

        let storage = StorageInfoModel(usedSpaceInMB: 1024, freeSpaceInMB: 3072)
        let _: KeyPath<StorageInfoModel, NSNumber> = \.usedSpaceInMB
        let _: KeyPath<StorageInfoModel, NSNumber> = \.freeSpaceInMB
        #expect(storage.usedSpaceInMB.intValue == 1024 && storage.freeSpaceInMB.intValue == 3072)
    }

    // MARK: The SDK entry point, configuration, storage

    @Test func sdkEntryPointHasTheDocumentedStaticMembers() {
        let _: String = AIBudsSDK.sdkVersion
        let _: String = AIBudsSDK.sdkBuild
        let _: String = AIBudsSDK.sdkReleaseDate
        let _: String = AIBudsSDK.sdkVersionDescription
        let _: SDKConfiguration = AIBudsSDK.sdkConfiguration
        #expect(AIBudsSDK.sdkVersionDescription.contains(AIBudsSDK.sdkVersion))

        let _: ([any BleConnectSDK], (any SDKDelegate)?) -> Bool = AIBudsSDK.initialize(_:delegate:)
        let _: ([any BleConnectSDK], SDKConfiguration?, (any SDKDelegate)?) -> Bool =
            AIBudsSDK.initialize(_:configuration:delegate:)
        let _: ([any BleConnectSDK], SDKConfiguration?, (any SDKDelegate)?) -> Bool =
            AIBudsSDK.initialize(bleSDKs:configuration:delegate:)
        let _: (NSNumber?, AIBudsScanningOnDeviceFoundHandler?, AIBudsOnScanStopHandler?) -> Void =
            AIBudsSDK.startScanning(_:deviceFoundHandler:completion:)
        let _: () -> Void = AIBudsSDK.stopScanning
        let _: () -> Bool = AIBudsSDK.isScanning
        let _: (any FoundDeviceConvertible) -> (any DeviceConvertible)? = AIBudsSDK.makeStorableDeviceFromDiscovered(_:)
        let _: ((any StarBurstBridgePlugin)?) -> Void = AIBudsSDK.setStarBurstAIPlugin(_:)
        let _: ((any MltCloudBridgePlugin)?) -> Void = AIBudsSDK.setMltCloudAIPlugin(_:)
        let _: ((any OnDeviceVoiceAssistantBridgePlugin)?) -> Void = AIBudsSDK.setOnDeviceVoiceAssistantPlugin(_:)

        let keys: [String] = [AIBudsSDK.ErrorDomain, AIBudsSDK.ErrorKey, AIBudsSDK.FoundDeviceKey]
        #expect(Set(keys).count == 3)
        let notifications: [Notification.Name] = [
            .scanningStartFailed, .scanningCanceled, .scanningStart, .scanningStop, .deviceFound, .deviceUpdate,
            .storedDevicesChanged,
        ]
        #expect(Set(notifications).count == 7)
    }

    @Test func sdkConfigurationHasTheDocumentedSettings() {
        let configuration = SDKConfiguration.default()
        configuration.logLevel = .debug
        configuration.includeTimestampInLogs = false
        configuration.scanTimeoutInSeconds = 12.5
        configuration.connectTimeoutInSeconds = 8
        configuration.commandTimeoutInSeconds = 4
        configuration.pairingRequestConfirmTimeoutInSeconds = 20
        configuration.bluetoothDataPacketIntervalInMilliseconds = 15
        configuration.shouldAutoReconnectWhenAppLaunch = false
        configuration.onlyDiscoverKnownDevices = true

        let _: ReferenceWritableKeyPath<SDKConfiguration, LogLevel> = \.logLevel
        let _: ReferenceWritableKeyPath<SDKConfiguration, Bool> = \.includeTimestampInLogs
        let _: ReferenceWritableKeyPath<SDKConfiguration, Double> = \.scanTimeoutInSeconds
        let _: ReferenceWritableKeyPath<SDKConfiguration, Double> = \.connectTimeoutInSeconds
        let _: ReferenceWritableKeyPath<SDKConfiguration, Double> = \.commandTimeoutInSeconds
        let _: ReferenceWritableKeyPath<SDKConfiguration, Double> = \.pairingRequestConfirmTimeoutInSeconds
        let _: ReferenceWritableKeyPath<SDKConfiguration, Int> = \.bluetoothDataPacketIntervalInMilliseconds
        let _: ReferenceWritableKeyPath<SDKConfiguration, Bool> = \.shouldAutoReconnectWhenAppLaunch
        let _: ReferenceWritableKeyPath<SDKConfiguration, Bool> = \.onlyDiscoverKnownDevices

        #expect(configuration.logLevel == .debug && !configuration.includeTimestampInLogs)
        #expect(configuration.scanTimeoutInSeconds == 12.5 && configuration.connectTimeoutInSeconds == 8)
        #expect(configuration.commandTimeoutInSeconds == 4 && configuration.pairingRequestConfirmTimeoutInSeconds == 20)
        #expect(configuration.bluetoothDataPacketIntervalInMilliseconds == 15)
        #expect(!configuration.shouldAutoReconnectWhenAppLaunch && configuration.onlyDiscoverKnownDevices)
        #expect(SDKConfiguration.default() !== configuration)
    }

    @Test func storedDevicesMgrHasTheDocumentedStaticMembers() {
        let _: (any DeviceConvertible) -> Bool = StoredDevicesMgr.addDevice(_:)
        let _: (any DeviceConvertible) -> Void = StoredDevicesMgr.removeDevice(_:)
        let _: (Int, Int) -> Bool = StoredDevicesMgr.moveDevice(from:to:)
        let _: (String) -> (any DeviceConvertible)? = StoredDevicesMgr.findDevice(byMacAddr:)
        let _: (Peripheral) -> (any DeviceConvertible)? = StoredDevicesMgr.findDevice(byPeripheral:)
        let _: ((@Sendable ([any DeviceConvertible], (any Error)?) -> Void)?) -> Void =
            StoredDevicesMgr.loadDevicesInBackgroundWithCompletion(_:)
        let _: ((@Sendable ((any Error)?) -> Void)?) -> Void = StoredDevicesMgr.saveDevicesInBackgroundWithCompletion(_:)
    }

    // MARK: Plugins and devices

    @Test func pluginAndDeviceProtocolsHaveTheDocumentedMembers() {
        let _: KeyPath<any BleConnectSDK, String> = \.sdkVersion
        let _: KeyPath<any BleConnectSDK, String> = \.sdkBuild
        let _: KeyPath<any BleConnectSDK, String> = \.sdkReleaseDate
        let _: KeyPath<any BleConnectSDK, String> = \.sdkVersionDescription
        let _: KeyPath<any BleConnectSDK, String> = \.sdkName
        let _: KeyPath<any BleConnectSDK, String> = \.providerName
        let _: KeyPath<any BleConnectSDK, BleProtocolKind> = \.protocolKind
        let _: KeyPath<any BleConnectSDK, any DeviceConvertible.Type> = \.classForDeviceModel

        let _: KeyPath<any FoundDeviceConvertible, Peripheral> = \.peripheral
        let _: KeyPath<any FoundDeviceConvertible, [String: Any]?> = \.advertisementData
        let _: KeyPath<any FoundDeviceConvertible, NSNumber?> = \.RSSI
        let _: KeyPath<any FoundDeviceConvertible, DeviceProduct> = \.product
        let _: KeyPath<any FoundDeviceConvertible, String?> = \.macAddress
        let _: KeyPath<any FoundDeviceConvertible, BleProtocolKind> = \.protocolKind

        let _: KeyPath<any DeviceConvertible, String> = \.name
        let _: KeyPath<any DeviceConvertible, UUID> = \.uuid
        let _: KeyPath<any DeviceConvertible, Date?> = \.lastConnectTime
        let _: KeyPath<any DeviceConvertible, String?> = \.bindUserId
        let _: KeyPath<any DeviceConvertible, Date?> = \.userBindTime
        let _: KeyPath<any DeviceConvertible, Bool> = \.isAlreadyUnbind
        let _: KeyPath<any DeviceConvertible, [String: Any]?> = \.advertisementData
        let _: ReferenceWritableKeyPath<any DeviceConvertible, String?> = \.screenName
        let _: ReferenceWritableKeyPath<any DeviceConvertible, String?> = \.customContent
        let _: KeyPath<any DeviceConvertible, DeviceProduct> = \.product
        let _: KeyPath<any DeviceConvertible, String?> = \.bluetoothName
        let _: KeyPath<any DeviceConvertible, String?> = \.macAddress
        let _: KeyPath<any DeviceConvertible, String?> = \.deviceModel
        let _: KeyPath<any DeviceConvertible, String?> = \.deviceSerialNum
        let _: KeyPath<any DeviceConvertible, String?> = \.firmwareVersion
        let _: KeyPath<any DeviceConvertible, Data?> = \.manufacturerData
        let _: KeyPath<any DeviceConvertible, PeripheralState> = \.connectionState
        let _: KeyPath<any DeviceConvertible, DeviceState> = \.deviceState
        let _: KeyPath<any DeviceConvertible, Bool> = \.isConnectedAndReady
        let _: KeyPath<any DeviceConvertible, Bool> = \.isBusy
        let _: ReferenceWritableKeyPath<any DeviceConvertible, (any DeviceDelegate)?> = \.delegate
        let _: KeyPath<any DeviceConvertible, ConnectParams?> = \.connectContext
        let _: ReferenceWritableKeyPath<any DeviceConvertible, Bool> = \.shouldAutoReconnectWhenAppLaunch

        // Every capability protocol refines the marker `DeviceAPI`.
        let _: (any DeviceInfoAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceCommonAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceFindAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceHotspotAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceAudioRecordingAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceCameraAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceOtaAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceWorkModeAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceWorkStateAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceVolumeControlAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceEqualizerAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceANCAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceWearDetectionAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceTWSAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceMusicControlAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceRemoteShutterAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceMediaFileImportAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceAppsAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceServiceAuthAPI) -> any DeviceAPI = { $0 }
        let _: (any DevicePhysicalOperationsAPI) -> any DeviceAPI = { $0 }
        let _: (any LiveStreamingAPI) -> any DeviceAPI = { $0 }
        let _: (any OnDeviceVoiceAssistantAPI) -> any DeviceAPI = { $0 }
        let _: (any TeleprompterAPI) -> any DeviceAPI = { $0 }
        let _: (any TurnByTurnNavigationAPI) -> any DeviceAPI = { $0 }
        let _: (any DeviceCameraOtaAPI) -> any DeviceAPI = { $0 }

        let _: KeyPath<any DeviceInfoAPI, StorageInfoModel?> = \.storageInfo
        let _: KeyPath<any DeviceInfoAPI, MediaCountInfoModel?> = \.mediaCountInfo
        let _: KeyPath<any DeviceAudioRecordingAPI, NSNumber?> = \.maxAudioRecordDuration
        let _: KeyPath<any DeviceCameraAPI, NSNumber?> = \.maxVideoRecordDuration
        let _: KeyPath<any DeviceWorkStateAPI, WorkState> = \.workState
        let _: KeyPath<any DeviceMediaFileImportAPI, Bool> = \.isVideoStabilizationAvailable
    }

    @Test func delegatesReceiveEveryDocumentedEventThroughTheirProtocols() throws {
        let found = FoundDevice(
            peripheral: Peripheral(
                stableKey: "AA:BB:CC:00:00:01", address: DeviceAddress(host: "127.0.0.1", port: 1), name: "Glasses"),
            advertisement: Advertisement(localName: "Glasses"), rssi: -42, product: .glasses,
            macAddress: "AA:BB:CC:00:00:01", protocolKind: .smp)
        let device: any DeviceConvertible = try #require(BaseDevice(device: found))
        #expect(device.name == "Glasses" && device.product == .glasses && device.macAddress == "AA:BB:CC:00:00:01")
        #expect(device.deviceState == .disconnected && !device.isConnectedAndReady && !device.isBusy)

        // Called through the protocols: an app method whose signature no longer matches a requirement
        // would not be called (the requirement's empty default would), and the test would fail.
        let appSDKDelegate = AppSDKDelegate()
        let sdkDelegate: any SDKDelegate = appSDKDelegate
        sdkDelegate.onScanningStatusChanged(true)
        sdkDelegate.didStartConnectingDevice(device)
        sdkDelegate.didConnectedToDevice(device)
        sdkDelegate.didFailToConnectDevice(device, error: SdkErrorCode.deviceNotConnected.makeError())
        sdkDelegate.device(device, didDisconnectWithError: nil)
        sdkDelegate.deviceDidReady(device)

        let appDeviceDelegate = AppDeviceDelegate()
        let deviceDelegate: any DeviceDelegate = appDeviceDelegate
        deviceDelegate.didStartConnectingDevice(device)
        deviceDelegate.didConnectedToDevice(device)
        deviceDelegate.didFailToConnectDevice(device, error: nil)
        deviceDelegate.device(device, didDisconnectWithError: nil)
        deviceDelegate.deviceDidReady(device)
        deviceDelegate.device(device, didBatteryStatusChanged: BatteryStatusInfoModel(level: 80, isCharging: true))
        deviceDelegate.device(device, didWorkStateChanged: .fileTransferring)
        deviceDelegate.device(device, didMediaCountInfoChanged: MediaCountInfoModel(photoCount: 1, videoCount: 2, audioCount: 3))
        deviceDelegate.device(device, didStorageInfoChanged: StorageInfoModel(usedSpaceInMB: 1, freeSpaceInMB: 2))
        deviceDelegate.device(device, didHotspotStateChanged: .hotspotOpen)
        deviceDelegate.device(device, didReceiveHotspotAddress: "http://192.0.2.1:8080")
        deviceDelegate.device(device, didFirmwareVersionChanged: "1.2.3")
        deviceDelegate.device(device, didReceiveFileDeletingProgressEvent: .completed)

        #expect(appSDKDelegate.log.events == [
            "sdk scanning true", "sdk connecting", "sdk connected", "sdk failed 2", "sdk disconnected nil", "sdk ready",
        ])
        #expect(appDeviceDelegate.log.events == [
            "connecting", "connected", "failed nil", "disconnected nil", "ready",
            "battery 80", "work state 13", "media count 1 2 3", "storage 1 2", "hotspot state 1",
            "hotspot address http://192.0.2.1:8080", "firmware 1.2.3", "deleting progress 1",
        ])
    }
}

/// The events an app's delegate received, in order.
private final class EventLog: Sendable {
    private let recorded = Locked<[String]>([])
    var events: [String] { recorded.withLock { $0 } }
    func record(_ event: String) { recorded.withLock { $0.append(event) } }
}

/// An app's SDK-wide delegate, implementing every documented callback with its documented signature.
private final class AppSDKDelegate: SDKDelegate {
    let log = EventLog()

    func onScanningStatusChanged(_ isScanning: Bool) { log.record("sdk scanning \(isScanning)") }
    func didStartConnectingDevice(_ device: any DeviceConvertible) { log.record("sdk connecting") }
    func didConnectedToDevice(_ device: any DeviceConvertible) { log.record("sdk connected") }
    func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {
        log.record("sdk failed \(error.map { "\($0.code)" } ?? "nil")")
    }
    func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {
        log.record("sdk disconnected \(error.map { "\($0.code)" } ?? "nil")")
    }
    func deviceDidReady(_ device: any DeviceConvertible) { log.record("sdk ready") }
}

/// An app's per-device delegate, implementing every documented callback with its documented signature.
private final class AppDeviceDelegate: DeviceDelegate {
    let log = EventLog()

    func didStartConnectingDevice(_ device: any DeviceConvertible) { log.record("connecting") }
    func didConnectedToDevice(_ device: any DeviceConvertible) { log.record("connected") }
    func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {
        log.record("failed \(error.map { "\($0.code)" } ?? "nil")")
    }
    func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {
        log.record("disconnected \(error.map { "\($0.code)" } ?? "nil")")
    }
    func deviceDidReady(_ device: any DeviceConvertible) { log.record("ready") }
    func device(_ device: any DeviceConvertible, didBatteryStatusChanged status: BatteryStatusInfoModel) {
        log.record("battery \(status.level)")
    }
    func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState) {
        log.record("work state \(state.rawValue)")
    }
    func device(_ device: any DeviceConvertible, didMediaCountInfoChanged info: MediaCountInfoModel) {
        log.record("media count \(info.photoCount) \(info.videoCount) \(info.audioCount)")
    }
    func device(_ device: any DeviceConvertible, didStorageInfoChanged info: StorageInfoModel) {
        log.record("storage \(info.usedSpaceInMB) \(info.freeSpaceInMB)")
    }
    func device(_ device: any DeviceConvertible, didHotspotStateChanged state: HotspotState) {
        log.record("hotspot state \(state.rawValue)")
    }
    func device(_ device: any DeviceConvertible, didReceiveHotspotAddress address: String) {
        log.record("hotspot address \(address)")
    }
    func device(_ device: any DeviceConvertible, didFirmwareVersionChanged version: String) {
        log.record("firmware \(version)")
    }
    func device(_ device: any DeviceConvertible, didReceiveFileDeletingProgressEvent event: FileDeletingProgressEvent) {
        log.record("deleting progress \(event.rawValue)")
    }
}

// MARK: Calls as an app writes them from the docs (compiled, never run)

/// The calls of the vendor's examples and published interfaces with their documented labels and
/// closure shapes. It only has to compile; running it would need a connected device.
private func appCodeFromTheDocs(
    plugin: any BleConnectSDK, found: any FoundDeviceConvertible, device: any DeviceConvertible,
    sdkDelegate: any SDKDelegate, deviceDelegate: any DeviceDelegate
) {
    // AIBudsSDK (its published interface and the architecture overview's examples).
    AIBudsSDK.initialize([plugin])
    AIBudsSDK.initialize([plugin], delegate: sdkDelegate)
    AIBudsSDK.initialize([plugin], configuration: SDKConfiguration.default(), delegate: sdkDelegate)
    AIBudsSDK.initialize(bleSDKs: [plugin], configuration: .default(), delegate: sdkDelegate)
    AIBudsSDK.startScanning()
    AIBudsSDK.startScanning(NSNumber(value: 10)) { (device: any FoundDeviceConvertible, isExistingDevice: Bool) in
        _ = (device.RSSI, isExistingDevice)
    } completion: {}
    if !AIBudsSDK.isScanning() { AIBudsSDK.stopScanning() }
    AIBudsSDK.setStarBurstAIPlugin(nil)
    AIBudsSDK.setMltCloudAIPlugin(nil)
    AIBudsSDK.setOnDeviceVoiceAssistantPlugin(nil)

    // Discovered → storable → persisted → connecting → ready.
    if let storable = AIBudsSDK.makeStorableDeviceFromDiscovered(found) {
        _ = StoredDevicesMgr.addDevice(storable)
        storable.delegate = deviceDelegate
        let params = ConnectParams()
        params.userId = "199"
        storable.connect(params)
    }
    StoredDevicesMgr.loadDevicesInBackgroundWithCompletion()
    StoredDevicesMgr.loadDevicesInBackgroundWithCompletion { (devices: [any DeviceConvertible], error: Error?) in
        _ = (devices, error)
    }
    StoredDevicesMgr.saveDevicesInBackgroundWithCompletion { (error: Error?) in _ = error }
    _ = StoredDevicesMgr.findDevice(byMacAddr: "AA:BB:CC:DD:EE:FF")
    _ = StoredDevicesMgr.findDevice(byPeripheral: found.peripheral)
    _ = StoredDevicesMgr.moveDevice(from: 0, to: 1)
    StoredDevicesMgr.removeDevice(device)
    _ = StoredDevicesMgr.allDevices
    device.disconnect()
    device.unpair()
    device.save()

    // A link plugin, as the SDK calls it.
    plugin.setSDKDelegate(sdkDelegate)
    if plugin.isKnownDevice(found.peripheral, advertisementData: found.advertisementData, rssi: found.RSSI) {
        _ = plugin.create(found.peripheral, advertisementData: found.advertisementData, rssi: found.RSSI)
    }
    _ = plugin.classForDeviceModel.init(device: found)

    // Capabilities: cast, then call (the architecture overview's examples first).
    if let info = device as? DeviceInfoAPI {
        info.setDeviceTime(Date()) { success, statusCode, error in _ = (success, statusCode, error) }
        info.setDeviceTime(to: Date()) { (success: Bool, statusCode: NSNumber?, error: NSError?) in
            _ = (success, statusCode, error)
        }
        info.syncDeviceTime { (success: Bool, statusCode: NSNumber?, error: NSError?) in _ = (success, statusCode, error) }
        info.setDeviceLanguage(.english) { success, statusCode, error in _ = (success, statusCode, error) }
        info.requestQueryStorageInfo { (success: Bool, error: NSError?) in _ = (success, error, info.storageInfo) }
        info.requestQueryMediaCountInfo { success, error in _ = (success, error, info.mediaCountInfo) }
        _ = (info.batteryStatusInfo, info.languageSetting, info.supportedLanguages)
    }
    if let anc = device as? DeviceANCAPI {
        anc.setAncMode(.ancOn) { _ in }
    }
    if let common = device as? DeviceCommonAPI {
        common.factoryReset { (success: Bool, error: NSError?) in _ = (success, error) }
        common.powerOff { success, error in _ = (success, error) }
    }
    if let find = device as? DeviceFindAPI {
        find.findDevice { success, error in _ = (success, error) }
        find.stopFindDevice { success, error in _ = (success, error) }
    }
    if let hotspot = device as? DeviceHotspotAPI {
        hotspot.configureHotspot(withMode: .ap, channel: 6, ssid: "AIBuds-1234", password: "secret-pass") {
            (success: Bool, statusCode: NSNumber?, error: NSError?) in _ = (success, statusCode, error)
        }
    }
    if let audio = device as? DeviceAudioRecordingAPI {
        let duration: NSNumber? = audio.maxAudioRecordDuration
        audio.setMaxAudioRecordDuration(NSNumber(value: 60)) { success, statusCode, error in _ = (success, statusCode, error, duration) }
        audio.requestStartAudioRecording { (success: Bool, statusCode: NSNumber?, error: NSError?) in _ = (success, statusCode, error) }
        audio.requestStopAudioRecording { (success: Bool, statusCode: NSNumber?, error: NSError?) in _ = (success, statusCode, error) }
    }
    if let camera = device as? DeviceCameraAPI {
        _ = camera.maxVideoRecordDuration
        camera.requestPhotoTaking(withCaptureMode: .single) { (success: Bool, statusCode: NSNumber?, error: NSError?) in
            _ = (success, statusCode, error)
        }
        camera.requestStopPhotoTaking { success, statusCode, error in _ = (success, statusCode, error) }
        camera.requestVideoRecording { success, statusCode, error in _ = (success, statusCode, error) }
        camera.requestStopVideoRecording { success, statusCode, error in _ = (success, statusCode, error) }
    }
    if let ota = device as? DeviceOtaAPI {
        ota.startOta(withFilePath: "/tmp/firmware.bin", startHandler: {}, progressHandler: { (progress: Double) in
            _ = progress
        }, completionHandler: { (success: Bool, error: NSError?) in _ = (success, error) })
    }
    if let workState = device as? DeviceWorkStateAPI {
        let state: WorkState = workState.workState
        _ = state
    }
    if let media = device as? DeviceMediaFileImportAPI {
        _ = media.isVideoStabilizationAvailable
        media.cancelMediaFileImport { (success: Bool, statusCode: NSNumber?, error: NSError?) in _ = (success, statusCode, error) }
        media.deleteMediaFile("example.mp4") { success, statusCode, error in _ = (success, statusCode, error) }
        media.deleteAllMediaFiles { success, statusCode, error in _ = (success, statusCode, error) }
    }
    if let media = device as? DeviceFileImportAPI {
        media.deleteAllMediaFiles(nil)
    }
}

// MARK: The vendor's raw values, one exhaustive switch per enum

private func vendorValue(_ value: MediaFileType) -> Int {
    switch value {
    case .unknown: -1
    case .image: 1
    case .audio: 2
    case .video: 3
    }
}

private func vendorValue(_ value: DeviceProduct) -> Int {
    switch value {
    case .unknown: -1
    case .watch: 0
    case .ring: 1
    case .glasses: 2
    case .chargingCase: 3
    case .earbuds: 4
    case .speaker: 5
    }
}

private func vendorValue(_ value: DeviceState) -> Int {
    switch value {
    case .unknown: -1
    case .connecting: 0
    case .connected: 1
    case .initializing: 2
    case .idle: 3
    case .busy: 4
    case .disconnecting: 5
    case .disconnected: 6
    }
}

/// The vendor's kinds; `smp` is this project's own addition.
private func vendorValue(_ value: BleProtocolKind) -> Int {
    switch value {
    case .none: -1
    case .abmate: 0
    case .fitcloudPro: 1
    case .w30: 2
    case .smp: value.rawValue
    }
}

private func vendorValue(_ value: HotspotMode) -> Int {
    switch value {
    case .station: 0
    case .ap: 1
    case .wifiDirect: 2
    }
}

private func vendorValue(_ value: HotspotState) -> Int {
    switch value {
    case .unknown: -1
    case .hotspotClose: 0
    case .hotspotOpen: 1
    case .wifiDirectOpen: 2
    case .wifiDirectConnected: 3
    case .wifiDirectFailed: 4
    case .wifiDirectTimeout: 5
    }
}

private func vendorValue(_ value: WorkState) -> Int {
    switch value {
    case .unknown: -1
    case .reserved: 0
    case .initializing: 1
    case .btOrBleWaitingForConnection: 2
    case .btOrBleConnectedIdle: 3
    case .btOrBleDisconnectedIdle: 4
    case .calling: 5
    case .playingLocalMusic: 6
    case .aiConversing: 7
    case .restoringFactorySettings: 8
    case .takingPhoto: 9
    case .aiTakingPhoto: 10
    case .recordingVideo: 11
    case .recordingAudio: 12
    case .fileTransferring: 13
    case .streaming: 14
    case .ota: 15
    case .shuttingDown: 16
    case .factoryTesting: 17
    case .ledTesting: 18
    case .buttonTesting: 19
    case .echoTesting: 20
    }
}

private func vendorValue(_ value: FileDeletingProgressEvent) -> Int {
    switch value {
    case .unknown: -1
    case .unexpectedExit: 0
    case .completed: 1
    }
}
