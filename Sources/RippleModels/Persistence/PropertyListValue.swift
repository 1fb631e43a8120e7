import Foundation

/// A type `UserDefaults` stores natively: numbers, strings, booleans, data, dates, and
/// arrays and dictionaries of them.
///
/// ``Persisted`` stores these as they are; other `Codable` types are stored as JSON data.
public protocol PropertyListValue: Codable, Sendable {}

extension Bool: PropertyListValue {}
extension Int: PropertyListValue {}
extension Int64: PropertyListValue {}
extension Double: PropertyListValue {}
extension Float: PropertyListValue {}
extension String: PropertyListValue {}
extension Data: PropertyListValue {}
extension Date: PropertyListValue {}
extension Array: PropertyListValue where Element: PropertyListValue {}
extension Dictionary: PropertyListValue where Key == String, Value: PropertyListValue {}
