import Foundation

/// The FSRS-6 memory model as the optimizer needs it: a forward pass over one card's reviews that records
/// what each step did, and a hand-derived backward pass that turns the weighted log loss of the scored
/// reviews into gradients for all 21 parameters. (The scheduler has its own forward formulas; this copy
/// exists because training needs the intermediate values and the branch taken at every step.)
///
/// The formulas and their clamps follow fsrs-rs 6.x:
/// - retrievability `R(t, S) = (1 + f·t/S)^(−w20)` with `f = 0.9^(−1/w20) − 1`;
/// - a first review sets `S = w[G−1]`, `D = clamp(w4 − e^(w5·(G−1)) + 1, 1, 10)`;
/// - a same-day review multiplies `S` by `e^(w17·(G−3+w18)) · S^(−w19)` (at least 1 unless Again);
/// - a lapse sets `S = min(w11·D^(−w12)·((S+1)^w13 − 1)·e^(w14·(1−R)), S / e^(w17·w18))`;
/// - a recall multiplies `S` by `1 + e^w8·(11−D)·S^(−w9)·(e^(w10·(1−R)) − 1)·(w15 if Hard)·(w16 if Easy)`;
/// - difficulty moves by `−w6·(G−3)` damped by `(10−D)/9`, reverts by `w7` towards the Easy initial
///   difficulty and is clamped to 1...10; stability is clamped to 0.001...36500.
/// Gradients follow the branch actually taken; clamps pass the gradient only inside their range.
struct FSRSModelKernel {
    /// What happened at one step, kept for the backward pass.
    struct StepCache {
        /// 0 first review, 1 same-day, 2 lapse (formula), 3 lapse (floor), 4 recall.
        var kind: UInt8 = 0
        var rating: Int = 0
        /// Same-day: the raw multiplier was used (not floored at 1).
        var shortActive = false
        /// The difficulty clamp let the value through.
        var dPass = false
        /// The stability clamp let the value through.
        var sPass = false
        /// Stability and difficulty before the step.
        var s = 0.0
        var d = 0.0
        /// Elapsed days, retrievability and the curve's base `1 + f·t/S`.
        var t = 0.0
        var r = 1.0
        var base = 1.0
        /// Branch values: recall `e^w8·(11−D)·S^(−w9)`, lapse `(S+1)^w13`, same-day raw multiplier.
        var a = 0.0
        /// Branch values: recall `e^(w10·(1−R))`, lapse `e^(w14·(1−R))`.
        var b = 0.0
        /// Lapse `D^(−w12)`.
        var c = 0.0
        /// Difficulty after the damped move, before mean reversion.
        var nextD = 0.0
    }

    static let stabilityMin = FSRSModel.minimumStability
    static let stabilityMax = FSRSModel.maximumStability
    static let difficultyMin = FSRSModel.difficultyRange.lowerBound
    static let difficultyMax = FSRSModel.difficultyRange.upperBound
    /// fsrs-rs keeps predictions away from 0 and 1 in its training loss.
    static let probabilityMin = 1e-7
    static let probabilityMax = 1 - 1e-7

    let w: [Double]
    private let w4, w5, w6, w7, w9, w10, w11, w12, w13, w14, w15, w16, w17, w18, w19: Double
    private let decay: Double
    private let factor: Double
    private let dFactorDDecay: Double
    private let expW8: Double
    private let initD4: Double
    private let floorFactor: Double
    private let shortBase: (Double, Double, Double, Double)
    private let initStability: (Double, Double, Double, Double)
    private let initDifficulty: (Double, Double, Double, Double)

    init(parameters w: [Double]) {
        precondition(w.count == 21, "FSRS-6 has 21 parameters")
        self.w = w
        (w4, w5, w6, w7) = (w[4], w[5], w[6], w[7])
        (w9, w10, w11, w12, w13, w14) = (w[9], w[10], w[11], w[12], w[13], w[14])
        (w15, w16, w17, w18, w19) = (w[15], w[16], w[17], w[18], w[19])
        decay = -w[20]
        let ln09 = log(0.9)
        factor = exp(ln09 / decay) - 1
        dFactorDDecay = exp(ln09 / decay) * (-ln09 / (decay * decay))
        expW8 = exp(w[8])
        initD4 = w[4] - exp(3 * w[5]) + 1
        floorFactor = exp(-w[17] * w[18])
        shortBase = (
            exp(w[17] * (-2 + w[18])), exp(w[17] * (-1 + w[18])), exp(w[17] * w[18]), exp(w[17] * (1 + w[18]))
        )
        initStability = (w[0], w[1], w[2], w[3])
        initDifficulty = (w[4], w[4] - exp(w[5]) + 1, w[4] - exp(2 * w[5]) + 1, w[4] - exp(3 * w[5]) + 1)
    }

    @inline(__always) private func pick(_ tuple: (Double, Double, Double, Double), _ rating: Int) -> Double {
        switch rating {
        case 1: tuple.0
        case 2: tuple.1
        case 3: tuple.2
        default: tuple.3
        }
    }

    /// Retrievability after `t` days at stability `s`.
    @inline(__always) func retrievability(t: Double, s: Double) -> Double {
        t <= 0 ? 1 : pow(1 + factor * t / s, decay)
    }

    /// One step of the model; returns the new (stability, difficulty) and fills `cache`.
    @inline(__always)
    private func step(
        s: Double, d: Double, t: Double, rating: Int, first: Bool, cache: inout StepCache
    ) -> (Double, Double) {
        cache.rating = rating
        if first {
            cache.kind = 0
            let rawD = pick(initDifficulty, rating)
            cache.dPass = rawD >= Self.difficultyMin && rawD <= Self.difficultyMax
            let newS = pick(initStability, rating)
            cache.sPass = newS >= Self.stabilityMin && newS <= Self.stabilityMax
            return (
                min(max(newS, Self.stabilityMin), Self.stabilityMax),
                min(max(rawD, Self.difficultyMin), Self.difficultyMax)
            )
        }
        cache.s = s
        cache.d = d
        cache.t = t
        var newS: Double
        if t <= 0 {
            cache.r = 1
            cache.base = 1
            cache.kind = 1
            let raw = pick(shortBase, rating) * pow(s, -w19)
            cache.a = raw
            if rating >= 2 && raw < 1 {
                cache.shortActive = false
                newS = s
            } else {
                cache.shortActive = true
                newS = s * raw
            }
        } else {
            let base = 1 + factor * t / s
            let r = pow(base, decay)
            cache.base = base
            cache.r = r
            if rating == 1 {
                let p = pow(s + 1, w13)
                let q = exp((1 - r) * w14)
                let dp = pow(d, -w12)
                cache.a = p
                cache.b = q
                cache.c = dp
                let raw = w11 * dp * (p - 1) * q
                let floor = s * floorFactor
                if floor < raw {
                    cache.kind = 3
                    newS = floor
                } else {
                    cache.kind = 2
                    newS = raw
                }
            } else {
                cache.kind = 4
                let a = expW8 * (11 - d) * pow(s, -w9)
                let e = exp((1 - r) * w10)
                cache.a = a
                cache.b = e
                let multiplier = rating == 2 ? w15 : (rating == 4 ? w16 : 1)
                newS = s * (1 + a * multiplier * (e - 1))
            }
        }
        let nextD = d + (10 - d) * (-w6 * Double(rating - 3)) / 9
        cache.nextD = nextD
        let meanD = w7 * (initD4 - nextD) + nextD
        cache.dPass = meanD >= Self.difficultyMin && meanD <= Self.difficultyMax
        cache.sPass = newS >= Self.stabilityMin && newS <= Self.stabilityMax
        return (
            min(max(newS, Self.stabilityMin), Self.stabilityMax),
            min(max(meanD, Self.difficultyMin), Self.difficultyMax)
        )
    }

    /// Backward through one step: `gS`/`gD` are the loss gradients of the step's output state, `gR` that
    /// of the step's retrievability. Adds parameter gradients to `g`; returns those of the input state.
    @inline(__always)
    private func backward(
        _ c: StepCache, gS: Double, gD: Double, gR: Double, g: UnsafeMutablePointer<Double>
    ) -> (Double, Double) {
        let gPreS = c.sPass ? gS : 0
        let rating = c.rating
        if c.kind == 0 {
            g[rating - 1] += gPreS
            if c.dPass && gD != 0 {
                let offset = Double(rating - 1)
                g[4] += gD
                g[5] += gD * -offset * exp(w5 * offset)
            }
            return (0, 0)
        }
        let s = c.s
        let d = c.d
        var gs = 0.0
        var gd = 0.0
        var gr = gR
        if gPreS != 0 {
            switch c.kind {
            case 1:
                if c.shortActive {
                    let raw = c.a
                    gs += gPreS * raw * (1 - w19)
                    let sr = gPreS * s * raw
                    g[17] += sr * (Double(rating - 3) + w18)
                    g[18] += sr * w17
                    g[19] -= sr * log(s)
                } else {
                    gs += gPreS
                }
            case 3:
                let floor = s * floorFactor
                gs += gPreS * floorFactor
                g[17] -= gPreS * floor * w18
                g[18] -= gPreS * floor * w17
            case 2:
                let p = c.a
                let q = c.b
                let dp = c.c
                let raw = w11 * dp * (p - 1) * q
                g[11] += gPreS * dp * (p - 1) * q
                g[12] -= gPreS * raw * log(d)
                g[13] += gPreS * w11 * dp * q * p * log(s + 1)
                g[14] += gPreS * raw * (1 - c.r)
                gs += gPreS * w11 * dp * q * w13 * p / (s + 1)
                gd -= gPreS * w12 * raw / d
                gr -= gPreS * w14 * raw
            default:
                let a = c.a
                let e = c.b
                let multiplier = rating == 2 ? w15 : (rating == 4 ? w16 : 1)
                let inc = a * multiplier * (e - 1)
                gs += gPreS * (1 + inc * (1 - w9))
                gd -= gPreS * s * inc / (11 - d)
                gr -= gPreS * s * a * multiplier * w10 * e
                g[8] += gPreS * s * inc
                g[9] -= gPreS * s * inc * log(s)
                g[10] += gPreS * s * a * multiplier * (1 - c.r) * e
                if rating == 2 { g[15] += gPreS * s * a * (e - 1) }
                if rating == 4 { g[16] += gPreS * s * a * (e - 1) }
            }
        }
        if c.dPass && gD != 0 {
            g[4] += gD * w7
            g[5] += gD * w7 * -3 * exp(3 * w5)
            g[7] += gD * (initD4 - c.nextD)
            let gNext = gD * (1 - w7)
            let ratingOffset = Double(rating - 3)
            g[6] += gNext * (10 - d) * -ratingOffset / 9
            gd += gNext * (1 + w6 * ratingOffset / 9)
        }
        if gr != 0 && c.t > 0 {
            let r = c.r
            let base = c.base
            gs += gr * decay * r / base * (-factor * c.t / (s * s))
            let dRDDecay = r * (log(base) + decay / base * (c.t / s) * dFactorDDecay)
            g[20] -= gr * dRDDecay
        }
        return (gs, gd)
    }

    /// Weighted log loss of one card's reviews `0..<length`, scoring review `p` with `weights[p]` (0 = not
    /// scored; the first review is never scored). With `gradient`, adds the loss gradient to it.
    /// `caches` must hold at least `length` entries.
    func sequenceLoss(
        ratings: UnsafePointer<Int>,
        deltas: UnsafePointer<Double>,
        weights: UnsafePointer<Double>,
        length: Int,
        caches: UnsafeMutablePointer<StepCache>,
        gradient: UnsafeMutablePointer<Double>?
    ) -> Double {
        var s = 0.0
        var d = 0.0
        var loss = 0.0
        for p in 0..<length {
            (s, d) = step(s: s, d: d, t: deltas[p], rating: ratings[p], first: p == 0, cache: &caches[p])
            let weight = weights[p]
            if p > 0 && weight != 0 {
                let rRaw = caches[p].r
                let r = min(max(rRaw, Self.probabilityMin), Self.probabilityMax)
                let y: Double = ratings[p] > 1 ? 1 : 0
                loss -= weight * (y * log(r) + (1 - y) * log(1 - r))
            }
        }
        guard let gradient else { return loss }
        var gS = 0.0
        var gD = 0.0
        var p = length - 1
        while p >= 0 {
            let c = caches[p]
            var gR = 0.0
            let weight = weights[p]
            if p > 0 && weight != 0 && c.r > Self.probabilityMin && c.r < Self.probabilityMax {
                let y: Double = c.rating > 1 ? 1 : 0
                gR = -weight * (y / c.r - (1 - y) / (1 - c.r))
            }
            (gS, gD) = backward(c, gS: gS, gD: gD, gR: gR, g: gradient)
            p -= 1
        }
        return loss
    }

    /// The predicted retrievability of every review `1..<length` of one card (written to `out[p]`;
    /// `out[0]` is set to 1), each from the memory state after the reviews before it.
    func predictions(
        ratings: UnsafePointer<Int>,
        deltas: UnsafePointer<Double>,
        length: Int,
        out: UnsafeMutablePointer<Double>
    ) {
        var s = 0.0
        var d = 0.0
        var cache = StepCache()
        for p in 0..<length {
            (s, d) = step(s: s, d: d, t: deltas[p], rating: ratings[p], first: p == 0, cache: &cache)
            out[p] = p == 0 ? 1 : cache.r
        }
    }
}
