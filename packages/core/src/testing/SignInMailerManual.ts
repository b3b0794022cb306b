import { Effect, Layer } from "effect"
import { SignInMailer } from "../usecases/SignInMailer.ts"

/** A SignInMailer that leaves the queued sign-in mails to the test, which sends them with `sendSignInMails`. */
export const SignInMailerManual = Layer.succeed(SignInMailer, SignInMailer.of({ wake: Effect.void }))
