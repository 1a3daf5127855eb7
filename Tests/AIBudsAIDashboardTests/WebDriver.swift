import AIBudsNet
import AIBudsProcess
import Foundation

/// Debian's chromium driven headless through its chromedriver (W3C WebDriver over HTTP).
final class WebDriver: @unchecked Sendable {
    // Set in init, then only read; calls come from one test at a time.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let driverPath = "/usr/bin/chromedriver"
    static let browserPath = "/usr/bin/chromium"
    private let process: ChildProcess
    private let address: SocketAddress
    private let session: String
    private let profile: URL

    /// Starts chromedriver on a free loopback port and opens a headless chromium session of
    /// `width`×`height`; throws, naming what is missing, when either program is not installed.
    init(profile: URL, width: Int = 1280, height: Int = 900) throws {
        for path in [Self.driverPath, Self.browserPath] where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure(description: "\(path) is not installed (scripts/install-deps.sh installs chromium and chromium-driver)")
        }
        let probe = try TCPListener(binding: SocketAddress(host: "127.0.0.1", port: 0))
        let port = probe.localAddress.port
        probe.close()
        address = SocketAddress(host: "127.0.0.1", port: port)
        self.profile = profile
        process = try ChildProcess(Self.driverPath, ["--port=\(port)", "--allowed-ips=127.0.0.1"], output: .discard, errors: .discard)
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let status = try? PlainHTTP.request("GET", address, "/status", timeout: .seconds(5)),
               let value = (try? status.json() as? [String: Any])?["value"] as? [String: Any], value["ready"] as? Bool == true {
                break
            }
            guard ContinuousClock.now < deadline else {
                process.terminate()
                for _ in 0..<500 where process.isRunning { usleep(10_000) }
                throw Failure(description: "chromedriver did not become ready within 60 s")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": Self.browserPath,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            "--window-size=\(width),\(height)", "--autoplay-policy=no-user-gesture-required",
                            "--user-data-dir=\(profile.path)", "--no-first-run", "--mute-audio",
                            "--disable-background-networking", "--disable-component-update",
                        ],
                    ],
                ],
            ],
        ]
        do {
            let created = try Self.call("POST", address, "/session", capabilities)
            guard let id = (created as? [String: Any])?["sessionId"] as? String else {
                throw Failure(description: "chromedriver answered no session id: \(String(describing: created))")
            }
            session = id
        } catch {
            process.terminate()
            throw error
        }
    }

    /// Ends the session and the driver (and with them the browser).
    func quit() {
        _ = try? Self.call("DELETE", address, "/session/\(session)", nil)
        process.terminate()
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
    }

    /// One WebDriver command; returns its `value`, throws with the driver's message on an error.
    @discardableResult
    static func call(_ method: String, _ address: SocketAddress, _ path: String, _ body: Any?) throws -> Any? {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try PlainHTTP.request(method, address, path, body: data, timeout: .seconds(120))
        let object = try? response.json() as? [String: Any]
        if response.status != 200 {
            let value = object?["value"] as? [String: Any]
            throw Failure(description: "\(method) \(path): \(response.status) \(value?["error"] ?? "") \(value?["message"] ?? response.text)")
        }
        return object?["value"]
    }

    @discardableResult
    func call(_ method: String, _ path: String, _ body: Any? = nil) throws -> Any? {
        try Self.call(method, address, "/session/\(session)" + path, body)
    }

    func navigate(_ url: String) throws { try call("POST", "/url", ["url": url]) }

    /// Runs `script` (a function body; `arguments` are its arguments) in the page; returns its value.
    func run(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try call("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// Runs `script` whose last argument is a callback it calls with its result.
    func runAsync(_ script: String) throws -> Any? {
        try call("POST", "/execute/async", ["script": script, "args": []])
    }

    /// The element matching `selector` (its WebDriver reference).
    func element(_ selector: String) throws -> [String: Any] {
        guard let value = try call("POST", "/element", ["using": "css selector", "value": selector]) as? [String: Any] else {
            throw Failure(description: "no element \(selector)")
        }
        return value
    }

    private func elementID(_ element: [String: Any]) -> String {
        // The W3C key; its value is the element's reference.
        (element["element-6066-11e4-a52e-4f735466cecc"] ?? element.values.first).map { "\($0)" } ?? ""
    }

    /// Clicks the element as a user would (scrolled into view, at its centre).
    func click(_ selector: String) throws { try call("POST", "/element/\(elementID(try element(selector)))/click", [String: Any]()) }

    /// Types `text` into the element.
    func type(_ text: String, into selector: String) throws {
        try call("POST", "/element/\(elementID(try element(selector)))/value", ["text": text])
    }

    /// Presses and releases keys on the keyboard (`\u{E007}` is Enter, `\u{E00C}` Escape).
    func press(_ keys: [String]) throws {
        let actions = keys.flatMap { [["type": "keyDown", "value": $0], ["type": "keyUp", "value": $0]] }
        try call("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }

    /// Resizes the window.
    func resize(width: Int, height: Int) throws {
        try call("POST", "/window/rect", ["width": width, "height": height])
    }

    /// A PNG of the viewport.
    func screenshot() throws -> Data {
        guard let text = try call("GET", "/screenshot") as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot")
        }
        return data
    }
}
