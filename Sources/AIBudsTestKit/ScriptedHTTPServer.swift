import AIBudsProcess
import Foundation

/// An HTTP/1.1 server on loopback whose answers a test writes in Python (the standard library's
/// `http.server`, one thread per connection, kept-alive connections): the other end of a client
/// under test that lies, stalls or floods, as a hostile store or model server would.
///
/// The test gives the body of `answer(self, body)`, called for every request of any method once
/// its body (`Content-Length` bytes) has been read; it writes the answer with `self.send_response`,
/// `self.send_header`, `self.end_headers` and `self.wfile`. A peer that hangs up mid-answer ends
/// the request quietly.
public final class ScriptedHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let base: String
    /// The folder that holds the script (and anything else the test puts there).
    public let folder: URL
    private let process: ChildProcess

    private init(base: String, folder: URL, process: ChildProcess) {
        self.base = base
        self.folder = folder
        self.process = process
    }

    /// Starts a server whose `answer(self, body)` is `handler` (Python, its lines indented as at
    /// the top level) and waits until it listens.
    public static func start(_ handler: String) async throws -> ScriptedHTTPServer {
        let folder = try makeTemporaryDirectory()
        let body = handler.split(separator: "\n", omittingEmptySubsequences: false).map { "            " + $0 }.joined(separator: "\n")
        let script = """
            import http.server, socketserver, sys, time

            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def log_message(self, *args): pass
                def handle_any(self):
                    length = int(self.headers.get("Content-Length") or 0)
                    body = self.rfile.read(length) if length else b""
                    try:
                        self.answer(body)
                    except (BrokenPipeError, ConnectionResetError):
                        self.close_connection = True
                def answer(self, body):
                    if True:
            \(body)
                do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any

            class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
                daemon_threads = True

            server = Server(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let file = folder.appendingPathComponent("server.py")
        try Data(script.utf8).write(to: file)
        let portFile = folder.appendingPathComponent("port")
        let process = try ChildProcess("/usr/bin/python3", [file.path], output: .file(portFile.path))
        var port = ""
        do {
            try await eventually("the scripted server prints its port", timeout: .seconds(30)) {
                port = (try? String(contentsOf: portFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                return !port.isEmpty || !process.isRunning
            }
        } catch {
            process.kill()
            throw error
        }
        guard !port.isEmpty else { throw ScriptedServerFailed(script: script) }
        return ScriptedHTTPServer(base: "http://127.0.0.1:\(port)", folder: folder, process: process)
    }

    /// Ends the server.
    public func stop() {
        process.kill()
    }

    deinit { process.kill() }
}

/// The scripted server ended before it listened (a Python error in the handler).
public struct ScriptedServerFailed: Error, CustomStringConvertible {
    /// The Python program that ended before it listened (a syntax error in the handler, say).
    public var script: String
    /// The script, for the test's failure message.
    public var description: String { "the scripted server did not start:\n\(script)" }
}
