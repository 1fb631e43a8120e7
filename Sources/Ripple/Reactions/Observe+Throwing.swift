/// Runs `body` now and again after every change of anything it read; an error it throws goes
/// to `handler`, and the reaction keeps its dependencies.
///
/// The same reaction as ``observe(file:line:_:)``, for a body that may fail: what it read
/// before throwing stays its dependencies, so it runs again when one of them changes, as after
/// a run that returned. The error is handed to `handler` on the thread that ran the body, after
/// the body, with no lock held (it may write, like the body); without a handler it is reported
/// in a runtime message on standard error naming the reaction (`named:`, or where it was
/// created), and the program goes on.
///
/// ```swift
/// let saver = observe(catch: { error in banner.value = "Not saved: \(error)" }) { () throws(SaveError) in
///     try disk.save(document.value)
/// }
/// ```
///
/// Ordering and glitch-freedom are those of any reaction: a run that throws is a run, and
/// reactions after it in the round run as usual. (This form is disfavored: a body that cannot
/// throw makes a plain ``observe(file:line:_:)``.)
///
/// - Parameters:
///   - name: A name for diagnostics and the default report, or `nil`.
///   - file: The file that creates it, named in diagnostics.
///   - line: The line that creates it, named in diagnostics.
///   - handler: Called with each error the body throws; `nil` reports it in a runtime message.
///   - body: The reaction.
/// - Returns: A ``Subscription`` that stops the reaction when cancelled or released.
@_disfavoredOverload
public func observe<Failure: Error>(
    named name: String? = nil,
    file: StaticString = #fileID,
    line: UInt = #line,
    catch handler: (@Sendable (Failure) -> Void)? = nil,
    _ body: @escaping @Sendable () throws(Failure) -> Void
) -> Subscription {
    let origin = _Origin(name: name, fileID: file, line: line)
    let report: @Sendable (Failure) -> Void =
        handler ?? { error in
            _RuntimeMessages.report(
                "the reaction \(origin) threw \(String(reflecting: error)); it keeps its dependencies and runs again when one of them changes. Pass observe(catch:) a handler to handle it."
            )
        }
    return _startReaction(
        _ReactionNode(origin: origin) {
            do throws(Failure) {
                try body()
            } catch {
                // A handler, not the body: its reads are not dependencies, and what it creates
                // is not the run's (the next run would cancel it).
                _callHandler { report(error) }
            }
        })
}
