(** Retrying requests. *)

open Printf

(** How often a request is tried again. *)
type retry_policy = {
  max_attempts : int;
  base_delay : float;
}

(** Delay before the next attempt. *)
val delay : retry_policy -> int -> float

module Client : sig
  type t

  (** Sends a request, retrying. *)
  val send : t -> string -> string
end

module type TRANSPORT = sig
  val send : string -> string
end

exception Exhausted of int
