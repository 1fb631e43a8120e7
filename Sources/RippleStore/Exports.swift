// `import RippleStore` is all a file that uses a store needs: stores are read with the core's
// API (`Computed`, `observe`, `withObservationTracking`) and the models layer's handlers.
@_exported import Observation
@_exported import Ripple
@_exported import RippleModels
