/// Internal: the reducer engine whose effect task runs the current task, as a task-local value
/// (its child tasks inherit it), so that a test clock can tell the engine's sleeping effects
/// from anything else asleep on the same clock (``RippleTesting``'s test stores settle when
/// every effect task of theirs is idle or asleep).
package enum _EffectTaskOwner {
    /// The engine running the current effect task, or `nil` outside one.
    @TaskLocal package static var engine: ObjectIdentifier?
}
