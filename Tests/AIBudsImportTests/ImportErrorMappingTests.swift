@testable import AIBudsImport
import AIBudsFoundation
import Testing

/// How a failed request of a file's SHA-256, asked over the control link, reaches the app: the
/// link's own error code when it gave one, not a Wi-Fi network error.
@Suite struct ImportErrorMappingTests {
    let file = MediaFileInfoModel(fileType: .video, fileName: "V1.mp4", baseUrl: "http://192.168.4.1:8080/media/")

    @Test(arguments: [
        (SdkErrorCode.deviceNotConnected, nil as Int?),
        (.bleCommandExecFailedDueToTimeout, nil),
        (.operationFailedDueToDeviceReturnNonSuccessStatusCode, 5),
    ])
    func theControlLinksCodeIsKept(code: SdkErrorCode, status: Int?) {
        let mapped = ImportErrorMapping.hashRequestError(AIBudsError(code, "link", deviceStatusCode: status), file: file)
        #expect(mapped.code == code && mapped.deviceStatusCode == status)
        #expect(mapped.message.contains("SHA-256 of 'V1.mp4'"), "\(mapped.message)")
    }

    @Test func anErrorOfNoKnownKindIsANetworkError() {
        struct Odd: Error {}
        #expect(ImportErrorMapping.hashRequestError(Odd(), file: file).code == .importFilesFailedDueToNetworkError)
    }
}
