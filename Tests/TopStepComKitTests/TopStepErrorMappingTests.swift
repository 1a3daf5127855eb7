@testable import TopStepComKit
import AIBudsFoundation
import Testing

/// The TopStep code an app gets for an SDK failure that did not come from an SMP request: the
/// code that says the same, not `taskFailed`.
@Suite struct TopStepErrorMappingTests {
    @Test(arguments: [
        (SdkErrorCode.deviceNotSupport, TSErrorEnum.notSupported),
        (.deviceBusy, .busy),
        (.deviceNotReady, .notReady),
        (.bleCommandExecFailedDueToTimeout, .timeout),
        (.operationCanceled, .userCancelled),
        (.deviceNotConnected, .notConnected),
        (.unknown, .taskFailed),
    ])
    func anSDKCodeBecomesTheTopStepCodeThatSaysTheSame(code: SdkErrorCode, expected: TSErrorEnum) {
        let error = TSError(channelError: AIBudsError(code, "why"), subject: "'REC_1.opus'", connected: true)
        #expect(error.code == expected, "\(error)")
    }

    @Test func aGoneDeviceIsNotConnectedWhateverTheCode() {
        #expect(TSError(channelError: AIBudsError(.deviceBusy), subject: "the request", connected: false).code == .notConnected)
    }
}
