import AIBudsFoundation
import Foundation
import Testing

/// `AIBudsError`, the SDK's one error type, and its bridge to the `NSError`s the vendor's
/// completion handlers carry: what goes in comes back out, and foreign errors map by fixed rules.
@Suite struct AIBudsErrorTests {
    private struct Foreign: Error, CustomStringConvertible {
        var description: String { "the disk is on fire" }
    }

    @Test func anErrorSurvivesTheTripThroughNSError() throws {
        let cause = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))
        let error = AIBudsError(.importFilesFailedDueToLocalFileError, "no room for IMG_1.jpg", underlying: cause, deviceStatusCode: 7)
        let ns = error.nsError
        #expect(ns.domain == AIBudsErrorDomain && ns.domain == AIBudsError.errorDomain)
        #expect(ns.code == SdkErrorCode.importFilesFailedDueToLocalFileError.rawValue)
        #expect(ns.localizedDescription == "no room for IMG_1.jpg")
        #expect((ns.userInfo[AIBudsError.deviceStatusCodeKey] as? NSNumber)?.intValue == 7)
        #expect((ns.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ENOSPC))
        let back = try #require(AIBudsError(ns))
        #expect(back == error)
        #expect((back.underlying as? NSError)?.domain == NSPOSIXErrorDomain)
        // Bridging by `as` gives the same NSError (CustomNSError).
        #expect((error as NSError).code == ns.code && (error as NSError).domain == ns.domain)
    }

    @Test func anNSErrorOfAnotherDomainIsNotAnSDKError() {
        #expect(AIBudsError(NSError(domain: NSCocoaErrorDomain, code: 4)) == nil)
    }

    @Test func foreignErrorsMapByFixedRules() {
        // Kept as they are.
        let mine = AIBudsError(.peripheralUnavailable, "gone")
        #expect(AIBudsError.from(mine) == mine)
        #expect(AIBudsError.from(mine.nsError) == mine)
        #expect(AIBudsError.nsError(from: mine).code == mine.code.rawValue)
        // Cancellation is the SDK's cancellation.
        #expect(AIBudsError.from(CancellationError()).code == .operationCanceled)
        #expect(AIBudsError.nsError(from: CancellationError()).code == SdkErrorCode.operationCanceled.rawValue)
        // Anything else is unknown, with the error as its cause and its text as the message.
        let unknown = AIBudsError.from(Foreign())
        #expect(unknown.code == .unknown && unknown.message == "the disk is on fire")
        #expect(unknown.underlying is Foreign)
        #expect(AIBudsError.nsError(from: Foreign()).code == SdkErrorCode.unknown.rawValue)
    }

    @Test func theDescriptionSaysTheMessageTheCodeAndTheCause() {
        let error = AIBudsError(.peripheralUnavailable, "the glasses are out of range", underlying: Foreign())
        #expect(error.description == "the glasses are out of range (code \(SdkErrorCode.peripheralUnavailable.rawValue)): the disk is on fire")
        #expect(AIBudsError(.peripheralUnavailable).message == SdkErrorCode.peripheralUnavailable.description)
        // Equality ignores the cause.
        #expect(error == AIBudsError(.peripheralUnavailable, "the glasses are out of range"))
        #expect(error != AIBudsError(.peripheralUnavailable, "the glasses are out of range", deviceStatusCode: 1))
    }

    @Test func makeErrorBuildsTheSameNSError() {
        let ns = SdkErrorCode.importFilesCanceled.makeError("stopped")
        #expect(ns.domain == AIBudsErrorDomain && ns.code == SdkErrorCode.importFilesCanceled.rawValue)
        #expect(AIBudsError(ns) == AIBudsError(.importFilesCanceled, "stopped"))
    }
}
