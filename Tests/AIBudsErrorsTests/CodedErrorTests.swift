import AIBudsErrors
import Testing

private enum DiskCode: String, CodedErrorCode, Equatable {
    case full, missing
    var descriptionPrefix: String? { "disk \(rawValue)" }
}

private enum PlainCode: CodedErrorCode, Equatable {
    case failed(status: Int32)
}

private struct Cause: Error, CustomStringConvertible {
    var description: String { "ENOSPC" }
}

struct CodedErrorTests {
    @Test func theDescriptionIsThePrefixTheMessageAndTheCause() {
        #expect("\(CodedError(DiskCode.full, "cannot write a.mp4"))" == "disk full: cannot write a.mp4")
        #expect("\(CodedError(DiskCode.full, "cannot write a.mp4", underlying: Cause()))"
            == "disk full: cannot write a.mp4: ENOSPC")
        #expect("\(CodedError(PlainCode.failed(status: 2), "nmcli failed"))" == "nmcli failed")
        #expect("\(CodedError(PlainCode.failed(status: 2), "nmcli failed", underlying: Cause()))" == "nmcli failed: ENOSPC")
    }

    @Test func callersSwitchOverTheEnginesOwnCodes() {
        let error: any Error = CodedError(PlainCode.failed(status: 4), "nmcli failed")
        guard let coded = error as? CodedError<PlainCode>, case .failed(let status) = coded.code else {
            Issue.record("not the engine's error: \(error)")
            return
        }
        #expect(status == 4)
        #expect(!(error is CodedError<DiskCode>))
    }

    @Test func equalityComparesCodeMessageAndTheCausesWords() {
        #expect(CodedError(DiskCode.full, "a") == CodedError(DiskCode.full, "a"))
        #expect(CodedError(DiskCode.full, "a") != CodedError(DiskCode.missing, "a"))
        #expect(CodedError(DiskCode.full, "a") != CodedError(DiskCode.full, "b"))
        #expect(CodedError(DiskCode.full, "a", underlying: Cause()) != CodedError(DiskCode.full, "a"))
        #expect(CodedError(DiskCode.full, "a", underlying: Cause()) == CodedError(DiskCode.full, "a", underlying: Cause()))
    }
}
