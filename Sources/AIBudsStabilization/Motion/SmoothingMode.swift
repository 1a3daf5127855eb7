/// How the virtual camera follows the real one.
public enum SmoothingMode: Sendable, Equatable {
    /// The default: a zero-phase exponential smoother whose time constant shrinks while the camera
    /// turns on purpose (its angular velocity averaged over 0.3 s is high) and grows while it only
    /// shakes. `smoothness` 0...1 sets the longest time constant (0.15 s to 2 s).
    case adaptive(smoothness: Double)
    /// A zero-phase exponential smoother with one time constant in seconds.
    case timeConstant(Double)
    /// A camera that does not move: every frame is shown from the clip's mean orientation.
    case fixed
}
