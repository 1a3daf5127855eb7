import AIBudsFoundation
import Dispatch
import Foundation

/// Runs the async form of an operation and delivers its result to a completion handler, exactly once,
/// on the SDK's callback queue.
///
/// This is the one bridge from the SDK's async API (the source of truth) to the vendor's
/// completion-handler API. Every operation's async form ends (devices fail in-flight calls when they
/// disconnect, and commands time out), so every completion runs exactly once.
public enum AIBudsCall {
    /// The serial queue on which completions, handlers and delegates are called
    /// (`AIBudsSDK.sdkConfiguration.callbackQueue`).
    public static var callbackQueue: DispatchQueue { AIBudsSDK.sdkConfiguration.callbackQueue }

    /// Calls `body` on the callback queue.
    public static func deliver(_ body: @escaping @Sendable () -> Void) {
        callbackQueue.async(execute: body)
    }

    /// Runs `operation` and reports `(success, error)`.
    public static func run(
        _ completion: AIBudsCompletionHandler?, _ operation: @escaping @Sendable () async throws -> Void
    ) {
        run({ (outcome: Result<Void, NSError>) in
            switch outcome {
            case .success: completion?(true, nil)
            case .failure(let error): completion?(false, error)
            }
        }, operation)
    }

    /// Runs `operation` and reports `(success, statusCode, error)`. On failure the status code is
    /// the one the device refused with (the error's `deviceStatusCode`), `nil` when the device
    /// never answered.
    public static func run(
        _ completion: AIBudsStatusCodeCompletionHandler?,
        _ operation: @escaping @Sendable () async throws -> NSNumber?
    ) {
        run({ (outcome: Result<NSNumber?, NSError>) in
            switch outcome {
            case .success(let code): completion?(true, code, nil)
            case .failure(let error):
                let code = (error.userInfo[AIBudsError.deviceStatusCodeKey] as? NSNumber)
                completion?(false, code, error)
            }
        }, operation)
    }

    /// Runs `operation` and reports only its error (`nil` on success).
    public static func run(
        _ completion: AIBudsErrorCompletionHandler?, _ operation: @escaping @Sendable () async throws -> Void
    ) {
        run({ (outcome: Result<Void, NSError>) in
            switch outcome {
            case .success: completion?(nil)
            case .failure(let error): completion?(error)
            }
        }, operation)
    }

    /// Runs `operation` and reports `(value, nil)` or `(nil, error)`: the vendor's shape of a call
    /// that returns something.
    public static func run<Value: Sendable>(
        _ completion: (@Sendable (_ value: Value?, _ error: NSError?) -> Void)?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) {
        run({ (outcome: Result<Value, NSError>) in
            switch outcome {
            case .success(let value): completion?(value, nil)
            case .failure(let error): completion?(nil, error)
            }
        }, operation)
    }

    /// Runs `operation` and reports its typed result; every other `run` is this one.
    public static func run<Value: Sendable>(
        _ completion: (@Sendable (Result<Value, NSError>) -> Void)?,
        _ operation: @escaping @Sendable () async throws -> Value
    ) {
        Task {
            let outcome = await capture(operation)
            deliver { completion?(outcome) }
        }
    }

    /// Runs `operation`, turning its error into an SDK `NSError`.
    public static func capture<Value: Sendable>(
        _ operation: @Sendable () async throws -> Value
    ) async -> Result<Value, NSError> {
        do {
            return .success(try await operation())
        } catch {
            return .failure(AIBudsError.nsError(from: error))
        }
    }
}
