import AIBudsNet
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("System calls: EINTR retried, errno typed, close")
struct SystemCallTests {
    /// A fake system call that fails with each of `errnos` in turn, then returns `value`.
    private final class ScriptedCall {
        var errnos: [Int32]
        let value: Int
        private(set) var calls = 0

        init(failing errnos: [Int32], then value: Int) {
            self.errnos = errnos
            self.value = value
        }

        func call() -> Int {
            calls += 1
            guard !errnos.isEmpty else { return value }
            errno = errnos.removeFirst()
            return -1
        }
    }

    @Test func anInterruptedCallIsMadeAgain() throws {
        let scripted = ScriptedCall(failing: [EINTR, EINTR], then: 5)
        #expect(try SystemCall.retryingOnInterrupt("read") { scripted.call() } == 5)
        #expect(scripted.calls == 3)
    }

    @Test func anInterruptedCallIsReturnedWhenItMustNotBeRepeated() {
        let scripted = ScriptedCall(failing: [EINTR], then: 0)
        let result = SystemCall.result("connect", retryingOnInterrupt: false) { scripted.call() }
        #expect(result == .failure(SystemCallError("connect", errno: EINTR)))
        #expect(scripted.calls == 1)
    }

    @Test func aFailureCarriesItsCallAndErrno() {
        let scripted = ScriptedCall(failing: [EINTR, EAGAIN], then: 0)
        let result = SystemCall.result("recv") { scripted.call() }
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.operation == "recv")
        #expect(failure.errno == EAGAIN)
        #expect(failure.wouldBlock)
        #expect(scripted.calls == 2)
        #expect(failure.description.hasPrefix("recv: "))
        #expect(failure.description.hasSuffix("(errno \(EAGAIN))"))
    }

    @Test func aRealFailureIsTyped() {
        #expect(throws: SystemCallError("open", errno: ENOENT)) {
            try SystemCall.retryingOnInterrupt("open") { open("/nonexistent-aibuds-\(getpid())/file", O_RDONLY | O_CLOEXEC) }
        }
    }

    @Test func closingADescriptorThatIsNotOpenFailsWithEBADF() {
        #expect(throws: SystemCallError("close", errno: EBADF)) { try SystemCall.close(-1) }
        SystemCall.closeIgnoringErrors(-1)  // and the cleanup variant stays quiet
    }

    @Test func closingAnOpenDescriptorSucceeds() throws {
        var ends: [Int32] = [-1, -1]
        try SystemCall.retryingOnInterrupt("pipe") { pipe(&ends) }
        try SystemCall.close(ends[0])
        try SystemCall.close(ends[1])
    }
}
