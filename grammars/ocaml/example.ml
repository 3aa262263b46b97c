open Printf
module Http = Cohttp_lwt_unix

(** How often a request is tried again. *)
type retry_policy = {
  max_attempts : int;
  base_delay : float;
}

(** Delay before the next attempt. *)
let delay policy attempt =
  policy.base_delay *. (2.0 ** float_of_int attempt)

module Client = struct
  type t = { policy : retry_policy }

  (** Sends a request, retrying. *)
  let send t request =
    let wait = delay t.policy 1 in
    perform request wait
end

module type TRANSPORT = sig
  val send : string -> string
end

exception Exhausted of int

let max_attempts = 5
