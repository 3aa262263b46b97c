; Haskell: import Data.Map, import qualified Network.Retry as R. @import.path is the module.
(import
  module: (module) @import.path) @import
