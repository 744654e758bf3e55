// The constants FlashcardsCore and the offline port share (docs/offline.md "One source"): FSRS-6
// defaults and bounds, the rating buttons, the ladder, the queue and text limits. Generated from
// Core: Tests/FlashcardsCoreTests/CoreConstantsTests.swift fails when a value differs from Core and
// writes this file anew with FLASHCARDS_WRITE_CORE_CONSTANTS=1. Everything after "export default"
// is JSON.
export default {
  "fsrs": {
    "defaultParameters": [
      0.212,
      1.2931,
      2.3065,
      8.2956,
      6.4133,
      0.8334,
      3.0194,
      0.001,
      1.8722,
      0.1666,
      0.796,
      1.4835,
      0.0614,
      0.2629,
      1.6483,
      0.6014,
      1.8729,
      0.5425,
      0.0912,
      0.0658,
      0.1542
    ],
    "parameterLowerBounds": [
      0.001,
      0.001,
      0.001,
      0.001,
      1,
      0.001,
      0.001,
      0.001,
      0,
      0,
      0.001,
      0.001,
      0.001,
      0.001,
      0,
      0,
      1,
      0,
      0,
      0,
      0.1
    ],
    "parameterUpperBounds": [
      100,
      100,
      100,
      100,
      10,
      4,
      4,
      0.75,
      4.5,
      0.8,
      3.5,
      5,
      0.25,
      0.9,
      4,
      1,
      6,
      2,
      2,
      0.8,
      0.8
    ],
    "desiredRetention": 0.9,
    "learningSteps": [
      60,
      600
    ],
    "relearningSteps": [
      600
    ],
    "maximumInterval": 36500,
    "minimumStability": 0.001,
    "maximumStability": 36500,
    "minimumDifficulty": 1,
    "maximumDifficulty": 10,
    "dayStartHour": 4,
    "ratings": [
      {
        "key": "again",
        "grade": 1,
        "id": 11,
        "label": "Nochmal",
        "color": "#EF4444"
      },
      {
        "key": "hard",
        "grade": 2,
        "id": 12,
        "label": "Schwer",
        "color": "#F97316"
      },
      {
        "key": "good",
        "grade": 3,
        "id": 13,
        "label": "Gut",
        "color": "#22C55E"
      },
      {
        "key": "easy",
        "grade": 4,
        "id": 14,
        "label": "Einfach",
        "color": "#0EA5E9"
      }
    ]
  },
  "ladder": {
    "maximumLevel": 10,
    "dayStartHour": 0,
    "ratings": [
      {
        "key": "hard",
        "id": 2,
        "label": "Schwer",
        "color": "#EF4444",
        "intervals": [
          60,
          60,
          120,
          600,
          600,
          600,
          600,
          600,
          600
        ]
      },
      {
        "key": "medium",
        "id": 1,
        "label": "Mittel",
        "color": "#F97316",
        "intervals": [
          120,
          300,
          600,
          1800,
          2700,
          3600,
          7200,
          7200,
          7200
        ]
      },
      {
        "key": "easy",
        "id": 0,
        "label": "Einfach",
        "color": "#22C55E",
        "intervals": [
          600,
          3600,
          21600,
          43200,
          172800,
          345600,
          604800,
          1209600,
          2592000
        ]
      }
    ]
  },
  "queue": {
    "dueCountLimit": 1000,
    "newCardsPerDay": 20,
    "reviewsPerDay": 200,
    "newCardsPerDayRange": [
      0,
      9999
    ],
    "reviewsPerDayRange": [
      1,
      99999
    ]
  },
  "quiz": {
    "maximumOptions": 4,
    "truthWords": [
      "Wahr",
      "Falsch"
    ]
  },
  "answerCheck": {
    "comparedLength": 2000,
    "diffEditLimit": 400
  },
  "textLimits": {
    "question": 10000,
    "answer": 20000,
    "hint": 2000,
    "stackName": 200,
    "stackDescription": 500,
    "userName": 100,
    "mail": 254,
    "minimumPassword": 8,
    "maximumPassword": 72
  },
  "cardKinds": {
    "minimumChoices": 1,
    "maximumChoices": 7,
    "choiceLength": 500,
    "maximumGaps": 50
  },
  "loadBalancer": {
    "maximumBalancedInterval": 90,
    "horizon": 100,
    "minimumWeight": 1e-9,
    "siblingSameDay": 0.000001,
    "siblingNear": [
      0.2,
      0.4,
      0.6,
      0.8
    ],
    "loadExponent": 2.15,
    "intervalExponent": 3,
    "easyDayWeights": {
      "normal": 1,
      "reduced": 0.5,
      "minimum": 1e-9
    }
  }
};
