// The login-tip story from Yoyo's README, played out with Ripple.
//
// A tip is shown to users who are logged in and have not clicked it yet. Each reaction
// prints what it did, so the output reads as a log of the story.
import Dispatch
import Ripple
import RippleBindings
import RippleModels
import RippleStore

final class LoginManager: Sendable {
    let isLoggedIn = Stored(false, name: "isLoggedIn")
    func logIn() { isLoggedIn.value = true }
    func logOut() { isLoggedIn.value = false }
}

final class TipManager: Sendable {
    let hasClickedTip = Stored(false, name: "hasClickedTip")
    let isTipHidden: Computed<Bool>

    init(loginManager: LoginManager) {
        let hasClickedTip = self.hasClickedTip
        isTipHidden = Computed(loginManager.isLoggedIn, hasClickedTip, name: "isTipHidden") { loggedIn, clicked in
            !loggedIn || clicked
        }
    }

    func clickTip() { hasClickedTip.value = true }
}

/// Stands in for a view: it only records what the reactions told it.
final class TipView: @unchecked Sendable {
    var isHidden = true
}

let loginManager = LoginManager()
let tipManager = TipManager(loginManager: loginManager)
let tipView = TipView()
let bag = SubscriptionBag()

print("— setting up reactions")
observe {
    tipView.isHidden = tipManager.isTipHidden.value
    print("  keepUpToDate: tip view is \(tipView.isHidden ? "hidden" : "shown")")
}.store(in: bag)

tipManager.isTipHidden.onChange { old, new in
    print("  onChange: isTipHidden went \(old) → \(new)")
}.store(in: bag)

when({ tipManager.hasClickedTip.value }) {
    print("  when: the user clicked the tip for the first time")
}.store(in: bag)

print("— the user logs in")
loginManager.logIn()

print("— the user logs in again (equal value: nothing runs)")
loginManager.logIn()

print("— the user clicks the tip")
tipManager.clickTip()

print("— log out and forget the click in one batch")
batch {
    loginManager.logOut()
    tipManager.hasClickedTip.value = false
}

print("— log in and out inside one batch (changed and changed back: nothing runs)")
batch {
    loginManager.logIn()
    loginManager.logOut()
}

print("— the view goes away")
bag.cancelAll()
loginManager.logIn()
print("  (no reaction ran)")

// The same story with RippleModels: a DidUpdate-style model, a binding handed to a child
// view, and a Yoyo-style updater that pauses while the view is off screen.
print("\n— RippleModels: a model, a binding and an updater")

final class HeaderModel: SendableModel, @unchecked Sendable {
    @Observed var unreadCount = 0 {
        didSet { print("  didSet: unreadCount is \(unreadCount)") }
    }
}

/// Stands in for a child view that edits a value it does not own.
final class Stepper: @unchecked Sendable {
    @ValueBinding var value: Int
    init(value: ValueBinding<Int>) { _value = value }
    func tapPlus() { value += 1 }
}

let header = HeaderModel()
let stepper = Stepper(value: header.bindings.unreadCount)
let updater = Updater()
let observers = SubscriptionBag {
    header.bindings.unreadCount.didUpdate { print("  didUpdate: \($0)") }
    header.bindings.unreadCount.map { $0 > 1 }.didChange { print("  didChange(map): more than one unread: \($0)") }
}
updater.onTransition(header.bindings.unreadCount) { old, new in
    print("  onTransition: \(old.map(String.init) ?? "nil") → \(new)")
}

print("— the stepper is tapped twice")
stepper.tapPlus()
stepper.tapPlus()

print("— the same value is written again (didUpdate hears it, nothing else runs)")
header.unreadCount = 2

print("— the view goes off screen; three changes happen; it comes back")
updater.pause()
header.unreadCount = 5
header.unreadCount = 7
header.unreadCount = 6
updater.resume()

// MARK: - A store (RippleStore): commits, Changes, derived values, fine-grained reads

print("\n— a store")

struct ChatState: Equatable, Sendable {
    var draft = ""
    var messages: [String] = []
    var unread = 0
}

enum ChatActivity: Sendable { case didSend(String) }

typealias ChatStore = Store<ChatState, ChatActivity>

extension ChatStore {
    func sendDraft() {
        let text = commit("send draft") { state -> String in
            let text = state.draft
            state.messages.append(text)
            state.draft = ""
            return text
        }
        send(.didSend(text))
    }
}

let chat = ChatStore(initialState: ChatState())
let messageCount = chat.derived(from: \.messages) { $0.count }
// A closure selector, as Verge's `derived(.map { … })`: runs on every commit, delivers on change.
let lastMessage = chat.select { $0.messages.last ?? "" }
let chatSubscriptions = SubscriptionBag {
    chat.sinkState(dropsFirst: true) { changes in
        changes.ifChanged(\.messages) { print("  sinkState: \($0.count) message(s), after \(changes.transaction)") }
    }
    chat.sinkActivity { activity in print("  activity: \(activity)") }
    lastMessage.sinkValue(dropsFirst: true) { print("  select: last message \"\($0.current)\"") }
    // Reads `store.state.unread` only: a commit to the draft or the messages does not re-run it.
    observe { print("  observe: unread = \(chat.state.unread)") }
}

chat.commit { $0.draft = "Hello" }  // nothing above reads the draft: nothing prints
chat.sendDraft()
chat.commit { $0.unread += 1 }
print("  derived message count: \(messageCount.value)")
_ = chatSubscriptions

// MARK: - A reducer (RippleStore): actions, effects, the same state container

print("\n— a reducer-driven store")

struct Counter: Reducer {
    struct State: Equatable { var number = 0 }
    enum Action { case increment, decrement, twice, load, loaded(Int) }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .increment: state.number += 1; return .none
        case .decrement: state.number -= 1; return .none
        case .twice: return .concat(.send(.increment), .send(.increment))
        case .load: return .run { send in await send(.loaded(100)) }.cancellable(id: "load")
        case .loaded(let n): state.number = n; return .none
        }
    }
}

let counter = ReducerStore(reducer: Counter(), initialState: Counter.State())
let loaded = DispatchSemaphore(value: 0)
let counterSubscription = counter.sinkState(dropsFirst: true) { changes in
    changes.ifChanged(\.number) { print("  number: \($0), after \(changes.transaction)") }
    if changes.current.number == 100 { loaded.signal() }
}
counter.send(.increment)
counter.send(.twice)  // both increments are reduced before send returns
print("  after send(.twice): \(counter.currentState.number)")
counter.send(.load)  // the effect sends .loaded(100) from its task
loaded.wait()
withExtendedLifetime(counterSubscription) {}

// RippleBindings: a label bound to the tip, a text field bound two ways, and a table view's data
// source. The "controls" here only print what they are told; on iOS they are UIKit's, through
// `label.ripple.text`.
print("\n— bindings: a label, a text field, a list")

final class PrintingControl: @unchecked Sendable {
    let name: String
    var text = "" { didSet { print("  \(name) shows \"\(text)\"") } }
    init(_ name: String) { self.name = name }
}

let tipLabel = PrintingControl("tip label")
let tipText = BindableProperty(tipLabel) { label, text in label.text = text }
tipText.bind(tipManager.isTipHidden, .transform { $0 ? "" : "Tap here to learn more" })
loginManager.logOut()
loginManager.logIn()

let priceField = PrintingControl("price field")
let price = Stored(1.0)
let priceText = TwoWayBindableProperty(priceField, get: { $0.text }, set: { $0.text = $1 })
priceText.bind(price, .transform({ "\($0)" }, reverse: { Double($0) ?? 0 }))
priceField.text = "1.50"  // the user types…
priceText.userDidEdit()  // …the field reports it: the model gets 1.5, the text stays
print("  price: \(price.value)")

struct Day: Identifiable, Equatable, Sendable {
    var id: String { name }
    var name: String
}
let days = Stored(["Monday", "Tuesday"].map { Day(name: $0) })
let dayList = ListDataSource(items: days)
dayList.connect { update in print("  table view applies: \(update)") }
days.value.insert(Day(name: "Sunday"), at: 0)
days.value.swapAt(1, 2)

// Tracing: the login-tip story once more, with a tracer that prints each event, and the
// questions a developer asks when a view updates too often.
print("\n— tracing the login tip")
let tracedLogin = LoginManager()
let tracedTips = TipManager(loginManager: tracedLogin)
let tracedView = TipView()
let render = observe(named: "render tip") {
    tracedView.isHidden = tracedTips.isTipHidden.value
}
let traceLog = TraceRecorder()
withTracer(traceLog) {
    tracedLogin.logIn()
    tracedTips.clickTip()
    batch {
        tracedLogin.logOut()
        tracedTips.hasClickedTip.value = false
    }
}
for line in traceLog.lines { print("  \(line)") }
print("  why did 'render tip' last run? \(whyDidThisRun(named: "render tip") ?? [])")
print(tracedTips.isTipHidden.dependencies.description.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
withExtendedLifetime(render) {}
