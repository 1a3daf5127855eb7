import AIBudsProcess
import AIBudsSync
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(1))) struct ChildProcessTests {
    @Test func outputsAndStatusAreCollected() async throws {
        let result = try await ChildProcess.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(result.termination == ChildTermination(status: 3, exited: true))
        #expect(result.text == "out")
        #expect(result.errorText == "err")
        #expect(!result.timedOut)
        let merged = try await ChildProcess.run("sh", ["-c", "echo a; echo b >&2"], mergeErrors: true)
        #expect(merged.text == "a\nb\n" && merged.errors.isEmpty && merged.termination.succeeded)
    }

    @Test func inputLargerThanAPipeGoesThroughWhole() async throws {
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let result = try await ChildProcess.run("/bin/cat", input: .bytes(bytes))
        #expect(result.output == bytes)
    }

    /// A child that exits without reading its input: the write fails quietly (EPIPE) instead of
    /// SIGPIPE killing this process (before the fix the whole test process died here).
    @Test func aChildThatIgnoresItsInputDoesNotKillTheParent() async throws {
        let bytes = Data(repeating: 0x61, count: 4 << 20)
        for _ in 0..<3 {
            let result = try await ChildProcess.run("/bin/true", input: .bytes(bytes))
            #expect(result.termination.exited && result.termination.status == 0)
        }
        try await Task.sleep(for: .milliseconds(200))
    }

    @Test func theEnvironmentAndDirectoryAreTheGivenOnes() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh", ["-c", "echo \"$ONLY:$HOME:$(pwd)\""], environment: ["ONLY": "yes"], directory: "/tmp")
        #expect(result.text == "yes::/tmp\n")
    }

    /// A descriptor this process opened without close-on-exec (as Foundation's `Process` opens
    /// its pipes) is not open in the child.
    @Test func theChildGetsOnlyItsStandardDescriptors() async throws {
        var leaky: [Int32] = [-1, -1]
        #expect(pipe(&leaky) == 0)
        defer { leaky.forEach { close($0) } }
        let result = try await ChildProcess.run("/bin/ls", ["/proc/self/fd"])
        let open = Set(result.text.split(separator: "\n").compactMap { Int32($0) })
        #expect(open.isSuperset(of: [0, 1, 2]))
        #expect(open.isDisjoint(with: leaky), "the child holds \(open)")
        // ls's own directory descriptor is the only other one.
        #expect(open.count <= 4, "the child holds \(open)")
    }

    /// Started from a thread that blocks SIGTERM (as the Swift runtime's threads block signals),
    /// the child still ends on SIGTERM.
    @Test func theChildDoesNotInheritABlockedSignal() async throws {
        let child = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ChildProcess, any Error>) in
            let thread = Thread {
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGTERM)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                continuation.resume(with: Result { try ChildProcess("/bin/sleep", ["30"], output: .discard, errors: .discard) })
            }
            thread.start()
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(child.terminate())
        #expect(await child.ended() == ChildTermination(status: SIGTERM, exited: false))
        #expect(!child.isRunning)
        #expect(!child.terminate(), "a reaped child is never signalled")
    }

    @Test func aRunPastItsLimitIsKilled() async throws {
        let start = ContinuousClock.now
        let result = try await ChildProcess.run("/bin/sleep", ["30"], timeout: .milliseconds(200))
        #expect(result.timedOut)
        #expect(result.termination == ChildTermination(status: SIGKILL, exited: false))
        // Well before the child's own 30 s, with room for a loaded machine (10.6 s seen in CI).
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test func cancellingTheTaskKillsTheChild() async throws {
        let task = Task { try await ChildProcess.run("/bin/sleep", ["30"]) }
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func aMissingProgramIsATypedError() throws {
        #expect {
            _ = try ChildProcess("/nonexistent/aibuds-no-such-program")
        } throws: { error in
            (error as? ChildProcessError)?.code == ENOENT
                && "\(error)".contains("cannot start /nonexistent/aibuds-no-such-program")
        }
    }

    /// Many children at once, more than Swift concurrency has threads, from many tasks: each ends
    /// with its own status and output, and the long-lived one started among them holds none of
    /// their pipes (its own lives on for 30 s, yet every short run returns).
    @Test func manyChildrenAtOnceEachEndOnTheirOwn() async throws {
        let sleeper = try ChildProcess("/bin/sleep", ["30"], output: .discard, errors: .discard)
        defer { sleeper.kill() }
        try await withThrowingTaskGroup(of: (Int, ChildResult).self) { group in
            for index in 0..<40 {
                group.addTask { (index, try await ChildProcess.run("/bin/sh", ["-c", "echo \(index); exit \(index % 7)"])) }
            }
            for try await (index, result) in group {
                #expect(result.text == "\(index)\n")
                #expect(result.termination == ChildTermination(status: Int32(index % 7), exited: true))
            }
        }
        #expect(sleeper.isRunning)
        let blocking = try ChildProcess("/bin/true", output: .discard, errors: .discard)
        let termination = await withCheckedContinuation { (continuation: CheckedContinuation<ChildTermination, Never>) in
            Thread { continuation.resume(returning: blocking.waitUntilExit()) }.start()
        }
        #expect(termination.succeeded)
    }
}
