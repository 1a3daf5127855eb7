import AIBudsSync

/// The state of an `AISessionHandle`: the session once it exists, and a stop or cancel asked for
/// before it did (applied when it attaches).
final class AIBudsSyncBox: Sendable {
    enum Request: Sendable { case none, stop, cancel }
    private let state = Locked<(session: AISession?, request: Request)>((nil, .none))

    var session: AISession? { state.withLock { $0.session } }

    func apply(_ request: Request) {
        let session = state.withLock { s -> AISession? in
            if s.session == nil, s.request != .cancel { s.request = request }
            return s.session
        }
        guard let session else { return }
        switch request {
        case .none: break
        case .stop: session.stop()
        case .cancel: session.cancel()
        }
    }

    func attach(_ session: AISession) {
        let request = state.withLock { s -> Request in
            s.session = session
            return s.request
        }
        switch request {
        case .none: break
        case .stop: session.stop()
        case .cancel: session.cancel()
        }
    }
}
